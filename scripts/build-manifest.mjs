// The record of what a build was made from: size and mtime of every source file under src/, mcp/, conformance/,
// step-definitions/ and features/. The repository's entry scripts (the kit, its stdio server, the MCP server) use the
// build only while it matches the sources.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

// features/ too: the build copies them into the kit's package and caches their scenarios for the reports.
const SOURCE_DIRS = ["src", "mcp", "conformance", "step-definitions", "features"];
// .mjs too: the build copies the kit's entry scripts and plugin into dist/conformance.
const SOURCE_FILE = /\.(ts|mts|mjs|json|feature)$/;
export const MANIFEST = "dist/build-inputs.json";

/** Size and mtime of every source file, by path relative to the repository root. */
export function sourceInputs(root) {
  const paths = SOURCE_DIRS.filter((dir) => existsSync(join(root, dir))).flatMap((dir) => readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath ?? entry.path, entry.name))));
  const inputs = {};
  for (const path of paths.sort()) {
    const { size, mtimeMs } = statSync(join(root, path));
    inputs[path] = { size, mtimeMs };
  }
  return inputs;
}

export function writeBuildManifest(root, inputs) {
  writeFileSync(join(root, MANIFEST), JSON.stringify(inputs));
}

/** Whether dist/ was built from the sources as they are now. */
export function isBuildFresh(root) {
  try {
    const built = JSON.parse(readFileSync(join(root, MANIFEST), "utf8"));
    return JSON.stringify(built) === JSON.stringify(sourceInputs(root));
  } catch {
    return false;
  }
}

/**
 * The module a repository entry script loads: `built` (a path under dist/) while the build matches the sources, which
 * starts several times faster; else `source`, the TypeScript through tsx, after `onStale` has said so.
 */
export async function repositoryModule(root, built, source, onStale) {
  if (isBuildFresh(root)) return pathToFileURL(join(root, built)).href;
  onStale?.();
  (await import("tsx/esm/api")).register();
  return source.href;
}
