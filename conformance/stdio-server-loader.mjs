// Loads adapters/stdio-server.ts for conformance/stdio-server.mjs, which the kit starts once per scenario.
// Through tsx every dependency import goes via its loader thread, which triples the start-up cost (about 2.5 s of
// CPU instead of 0.7 s), paid again in every scenario. So the TypeScript is bundled with esbuild (tsx's own
// dependency; packages stay external) into node_modules/.cache and reused while its input files are unchanged.
// When that is not possible, tsx loads the sources as usual. (Bundled code must not locate files relative to its
// own module, import.meta.url: the bundle lives elsewhere. src/ and conformance/adapters/ do not.)
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = join(PACKAGE_ROOT, "conformance/adapters/stdio-server.ts");
const CACHE_DIR = join(PACKAGE_ROOT, "node_modules/.cache/exec-process-conformance");
const BUNDLE = join(CACHE_DIR, "stdio-server.mjs");
const MANIFEST = join(CACHE_DIR, "stdio-server.inputs.json");

/** The module adapters/stdio-server.ts, bundled when possible. */
export async function importStdioServer(log) {
  let bundle;
  try {
    bundle = isFresh() ? BUNDLE : build();
  } catch (error) {
    log(`stdio-server: loading the sources through tsx (bundling failed: ${error.message})`);
    const { register } = await import("tsx/esm/api");
    register();
    return import(pathToFileURL(ENTRY).href);
  }
  return import(pathToFileURL(bundle).href);
}

/** Whether the cached bundle was built from the input files as they are now (same size and mtime). */
function isFresh() {
  try {
    const inputs = JSON.parse(readFileSync(MANIFEST, "utf8"));
    return Object.entries(inputs).every(([path, seen]) => {
      const { size, mtimeMs } = statSync(path);
      return size === seen.size && mtimeMs === seen.mtimeMs;
    });
  } catch {
    return false;
  }
}

/** Bundles the entry, then writes bundle and manifest atomically (other workers may read or build concurrently). */
function build() {
  const esbuild = createRequire(import.meta.resolve("tsx/esm/api"))("esbuild");
  const result = esbuild.buildSync({
    entryPoints: [ENTRY], absWorkingDir: PACKAGE_ROOT, bundle: true, packages: "external", platform: "node",
    format: "esm", target: "node20", keepNames: true, write: false, metafile: true, logLevel: "silent",
  });
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const path = join(PACKAGE_ROOT, input);
    const { size, mtimeMs } = statSync(path);
    inputs[path] = { size, mtimeMs };
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const unique = `${process.pid}-${Date.now()}`;
  writeAtomically(BUNDLE, result.outputFiles[0].text, unique);
  writeAtomically(MANIFEST, JSON.stringify(inputs), unique);
  return BUNDLE;
}

function writeAtomically(path, text, unique) {
  const temporary = `${path}.${unique}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
