// npm's `prepare` script. It builds only when npm installs this repository as a git dependency
// (`npm install github:…`): npm first installs the repository's dependencies in its clone, with _PACOTE_NO_PREPARE_
// set, then packs the clone, which must hold dist/ (npm runs no prepack there). A plain `npm install` in a clone
// builds nothing (`npm run build` does, and `npm test` builds first).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "./build-manifest.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
if (process.env["_PACOTE_NO_PREPARE_"] !== undefined && !isBuildFresh(ROOT)) {
  const build = spawnSync(process.execPath, [fileURLToPath(new URL("build.mjs", import.meta.url))], { stdio: "inherit" });
  process.exit(build.status ?? 1);
}
