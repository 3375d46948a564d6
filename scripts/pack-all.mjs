// `npm run pack:all [-- <folder>]`: builds once, then packs the three packages (the tools, the conformance kit and
// the MCP server) into one folder, `packs/` by default, so that they install together before they are on the
// registry: the tools first, as a dependency, then the kit as a devDependency or the server (both depend on the tools
// of the same version, which the tools' tarball installed already).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "./build-manifest.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The package folders, tools first: the other two name its version as a dependency. */
export const PACKAGE_FOLDERS = [".", "packages/conformance", "packages/mcp"];
const DEFAULT_DESTINATION = "packs";

/** Builds unless dist/ matches the sources, then packs every package into `destination`; returns the tarballs. */
export function packAll(destination) {
  mkdirSync(destination, { recursive: true });
  if (!isBuildFresh(ROOT)) runOrExit(process.execPath, [join(ROOT, "scripts/build.mjs")], ROOT);
  return PACKAGE_FOLDERS.map((folder) => {
    // --ignore-scripts: prepack would build again for each package.
    const packed = runOrExit("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination], join(ROOT, folder));
    return join(destination, JSON.parse(packed)[0].filename);
  });
}

/**
 * The install commands for a project: the tools as a dependency (the agent needs them at run time), then the kit as
 * a devDependency (installing it with the tools' tarball on one --save-dev line would demote the tools, issue 37).
 */
export function installLines(tools, kit, mcp) {
  return [
    `npm install ${tools} @langchain/core langchain @langchain/langgraph`,
    `npm install --save-dev ${kit}`,
    `npm install ${mcp} ${tools}`,
  ];
}

function runOrExit(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? "");
    process.exit(result.status ?? 1);
  }
  return result.stdout;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const destination = resolve(process.argv[2] ?? join(ROOT, DEFAULT_DESTINATION));
  const [tools, kit, mcp] = packAll(destination);
  console.log(`Packed into ${destination}:\n  ${[tools, kit, mcp].join("\n  ")}`);
  console.log("In your project, install the tools with their peers, and the kit or the MCP server beside them:");
  for (const line of installLines(tools, kit, mcp)) console.log(`  ${line}`);
}
