// `npm run build`: compiles src/, mcp/, conformance/ and step-definitions/ into dist/ (tsconfig.build.json), then
// assembles the conformance kit's package in packages/conformance/ and the MCP server's in packages/mcp/ from that
// build. The tools package ships dist/src; the kit and the MCP server ship compiled JavaScript only, with their
// imports of src/ turned into imports of the tools package by name.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sourceInputs, writeBuildManifest } from "./build-manifest.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const KIT = join(ROOT, "packages/conformance");
const MCP = join(ROOT, "packages/mcp");
/** Everything the build writes into the kit's folder (the rest of the folder is committed). */
const KIT_OUTPUTS = ["conformance", "step-definitions", "features", "docs", "examples", "LICENSE"];
/** Modules of src/ that the kit and the MCP server import, and the entry of the tools package (package.json `exports`) that exports
 * everything they export. */
const TOOLS_ENTRIES = {
  "src/index.js": "langchain-exec-process",
  "src/langchain/toolkit.js": "langchain-exec-process",
  "src/engine/index.js": "langchain-exec-process/engine",
  "src/executors/index.js": "langchain-exec-process/executors",
  "src/tool-spec/index.js": "langchain-exec-process/tool-spec",
  "src/host/index.js": "langchain-exec-process/host",
  "src/host/bounded-lines.js": "langchain-exec-process/host",
  "src/host/private-file.js": "langchain-exec-process/host",
};
/** conformance/ files that ship besides the compiled modules: entry scripts and the protocol's documents. */
const KIT_CONFORMANCE_FILES = ["bin.mjs", "stdio-server.mjs", "slow-first-order.mjs", "PROTOCOL.md", "INTERPRETING.md", "protocol.schema.json"];

/**
 * `--no-check`: emit without type checking, for a caller that checks the same files itself (npm test's type check runs
 * beside the build, over tsconfig.json, which holds these). The output is the same byte for byte; the build takes half
 * its CPU and wall time (tsc: 13 → 7 s of CPU, 8 → 4 s of wall), and every kit run of npm test waits for it (issue 36).
 */
const NO_CHECK = process.argv.slice(2).includes("--no-check");

const inputs = sourceInputs(ROOT);
rmSync(join(ROOT, "dist"), { recursive: true, force: true });
const tscArgs = ["-p", "tsconfig.build.json", ...(NO_CHECK ? ["--noCheck"] : [])];
const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), ...tscArgs], { cwd: ROOT, stdio: "inherit" });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
await bundleMcpServer();
await bundleStdioServer();
await writeFeatureScenarioCache();
// The repository's kit (conformance/bin.mjs) runs from dist/ too while the build is fresh: its plugin goes beside it.
copyFileSync(join(ROOT, "conformance/slow-first-order.mjs"), join(ROOT, "dist/conformance/slow-first-order.mjs"));
writeBuildManifest(ROOT, inputs);
assembleKit();
assembleMcp();

/**
 * The repository's MCP server as one file (dist/mcp/server.bundle.cjs), which mcp/exec-process-mcp.mjs prefers: a
 * start then reads one file instead of about 800 modules, and skips most of its compiling with the bundle's code cache
 * (scripts/cached-bundle.cjs): 0.19 s of CPU to the answer of `initialize` instead of 0.21 s without the cache and 0.60 s
 * from the compiled modules (bench/mcp-server-start.mjs). Native and optional modules stay outside, loaded on use.
 * CommonJS, because only a script can take V8's code cache on Node 20.
 */
function bundleMcpServer() {
  return bundleScript("dist/mcp/cli.js", "dist/mcp/server.bundle.cjs");
}

/**
 * The reference over stdio as one file (dist/conformance/stdio-server.bundle.cjs), which conformance/stdio-server.mjs
 * prefers in the repository: a start loaded about 440 ES modules of LangChain, zod and the engine, 0.41–0.46 s of CPU
 * to the end of an empty input, against 0.13 s from the bundle; the kit starts it for its probe and for every worker of
 * every stdio run (issue 36).
 */
function bundleStdioServer() {
  return bundleScript("dist/conformance/adapters/stdio-server.js", "dist/conformance/stdio-server.bundle.cjs");
}

/** Bundles a compiled entry module and its imports into one CommonJS script with its code cache beside it. */
async function bundleScript(entry, bundle) {
  const { build } = await import("esbuild");
  const outfile = join(ROOT, bundle);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "warning",
    external: ["node-pty", "ssh2", "cpu-features", "dockerode"],
    // The modules' own URLs become the bundle's (server-info.ts finds package.json from there).
    define: { "import.meta.url": "bundleUrl" },
    // import() of the optional modules becomes require(): a script run with a code cache has no import() on Node 20.
    supported: { "dynamic-import": false },
    banner: { js: 'const bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  // esbuild writes code as ASCII (charset "ascii" is its default) but keeps the comments' characters (…, →, ─): one
  // of them makes the whole 2 MB source a two-byte string, which every start reads and copies at twice the cost
  // (a few ms of each of the MCP pass's server starts). Only comments can hold them, so they become "?".
  writeFileSync(outfile, readFileSync(outfile, "utf8").replace(/[^\x00-\x7f]/g, "?"));
  const cache = spawnSync(process.execPath, ["--input-type=module", "-e",
    `import { writeBundleCache } from ${JSON.stringify(new URL("./cached-bundle.cjs", import.meta.url).href)}; writeBundleCache(${JSON.stringify(outfile)});`,
  ], { cwd: ROOT, stdio: "inherit" });
  if (cache.status !== 0) throw new Error(`Could not write the code cache of ${bundle}.`);
}

/** The scenarios of the kit's features, for the reports of runs that leave most of them out (scenario-steps.ts). */
async function writeFeatureScenarioCache() {
  const { buildFeatureScenarioCache, FEATURE_SCENARIOS_CACHE } = await import(pathToFileURL(join(ROOT, "dist/conformance/report/scenario-steps.js")).href);
  writeFileSync(FEATURE_SCENARIOS_CACHE, JSON.stringify(buildFeatureScenarioCache(join(ROOT, "features"))));
}

function assembleKit() {
  checkVersions(KIT);
  for (const output of KIT_OUTPUTS) rmSync(join(KIT, output), { recursive: true, force: true });
  copyCompiled("conformance", (name) => /\.(js|d\.ts|json)$/.test(name), join(KIT, "conformance"));
  copyCompiled("step-definitions", (name) => name.endsWith(".js"), join(KIT, "step-definitions"));
  for (const file of KIT_CONFORMANCE_FILES) copyFileSync(join(ROOT, "conformance", file), join(KIT, "conformance", file));
  cpSync(join(ROOT, "features"), join(KIT, "features"), { recursive: true });
  mkdirSync(join(KIT, "docs"));
  copyFileSync(join(ROOT, "docs/SPEC.md"), join(KIT, "docs/SPEC.md"));
  // The starter skeletons for implementations in other languages (PROTOCOL.md §8).
  cpSync(join(ROOT, "examples/python-starter"), join(KIT, "examples/python-starter"), { recursive: true });
  // The editions of the documentation page, which documentation.html shows sentence by sentence.
  cpSync(join(ROOT, "docs/editions"), join(KIT, "docs/editions"), { recursive: true });
  copyFileSync(join(ROOT, "LICENSE"), join(KIT, "LICENSE"));
}

/** The MCP server's package (issue 22): dist/ holds the compiled mcp/ modules and the bin script beside them. */
function assembleMcp() {
  checkVersions(MCP);
  for (const output of ["dist", "LICENSE"]) rmSync(join(MCP, output), { recursive: true, force: true });
  copyCompiled("mcp", (name) => /\.(js|d\.ts)$/.test(name), join(MCP, "dist"));
  copyFileSync(join(ROOT, "mcp/exec-process-mcp.mjs"), join(MCP, "dist/exec-process-mcp.mjs"));
  chmodSync(join(MCP, "dist/exec-process-mcp.mjs"), 0o755);
  copyFileSync(join(ROOT, "LICENSE"), join(MCP, "LICENSE"));
}

/** A package built alongside the tools has their version and depends on exactly that version. */
function checkVersions(folder) {
  const tools = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const built = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  if (built.version !== tools.version || built.dependencies?.[tools.name] !== tools.version) {
    throw new Error(`${relative(ROOT, folder)}/package.json must have version ${tools.version} and depend on ${tools.name} ${tools.version}.`);
  }
}

/** Copies dist/<dir> to `to`, keeping only matching files and rewriting imports of src/. */
function copyCompiled(dir, keep, to) {
  const from = join(ROOT, "dist", dir);
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !keep(entry.name)) continue;
    const source = join(entry.parentPath ?? entry.path, entry.name);
    const target = join(to, relative(from, source));
    mkdirSync(dirname(target), { recursive: true });
    const text = readFileSync(source, "utf8");
    writeFileSync(target, entry.name.endsWith(".json") ? text : toPackageImports(text, relative(ROOT, source)));
  }
}

/** `../../src/index.js` → `langchain-exec-process`; drops the source-map comment (maps and sources do not ship). */
function toPackageImports(text, file) {
  return text
    .replace(/(["'])(?:\.\.\/)+(src\/[\w/.-]+)\1/g, (match, quote, path) => {
      const entry = TOOLS_ENTRIES[path];
      if (!entry) throw new Error(`${file} imports ${path}, which is not an entry of the tools package (${Object.keys(TOOLS_ENTRIES).join(", ")}).`);
      return `${quote}${entry}${quote}`;
    })
    .replace(/\n\/\/# sourceMappingURL=.*$/, "");
}
