// A CommonJS bundle loaded with V8's code cache (Node 20 has no module compile cache): the repository's MCP server
// starts once per scope of every scenario of the kit's MCP pass, and each start compiled its 2.8 MB bundle anew. The
// build writes the cache next to the bundle; a cache V8 rejects (another Node, other flags) only costs the compile it
// would have saved. CommonJS itself, so that scripts/mcp-bundle.cjs loads it without starting the ES module loader.
"use strict";
const { readFileSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname } = require("node:path");
const { Script } = require("node:vm");

/** Where the code cache of `bundle` lies. */
const cachePath = (bundle) => `${bundle}.cache`;

/** The bundle as the function Node wraps every CommonJS module in. */
function compile(bundle, cachedData) {
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, "utf8")}\n})`;
  return new Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
}

function run(script, bundle) {
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}

/** Loads the bundle (its exports), with the code cache when there is one. */
function loadBundle(bundle) {
  let cachedData;
  try {
    cachedData = readFileSync(cachePath(bundle));
  } catch {
    cachedData = undefined; // no cache yet: compile
  }
  return run(compile(bundle, cachedData), bundle);
}

/** Runs the bundle's top level once and writes the code of everything compiled by then as its cache. */
function writeBundleCache(bundle) {
  const script = compile(bundle);
  run(script, bundle);
  writeFileSync(cachePath(bundle), script.createCachedData());
}

module.exports = { cachePath, loadBundle, writeBundleCache };
