// Tests run against the build of the sources as they are: the kit, its stdio server and the MCP server that tests
// start run compiled from dist/ while it matches the sources, and the packaging tests pack it. A stale build is
// rebuilt here, once, before any test file runs: never by a test file while others use dist/ (the build empties it).
import { spawnSync } from "node:child_process";
import { isBuildFresh } from "../scripts/build-manifest.mjs";

export default function buildWhenStale(): void {
  const root = new URL("..", import.meta.url).pathname;
  if (isBuildFresh(root)) return;
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
}
