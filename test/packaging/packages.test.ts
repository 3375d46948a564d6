// The three npm packages as a user gets them (issues 10, 22 and 36): the tools, the kit and the MCP server are packed
// from the build once, installed from their tarballs without a C compiler in three projects (the tools alone, in a
// CommonJS project as `npm init -y` makes it; the kit and the MCP server added to that install, as the install lines of
// the documents add them, in an ES-module copy of it; the MCP server alone, without LangChain), and used with plain
// `node`, `npx` and an MCP client. One file, so that the packs and installs (most of its CPU) are made once.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installedPackages, packagesBeyond, type InstalledPackage } from "./installed-packages.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const KIT_SOURCE = join(ROOT, "packages/conformance");
const MCP_SOURCE = join(ROOT, "packages/mcp");
const SETUP_TIMEOUT_MS = 600_000;
const KIT_RUN_TIMEOUT_MS = 300_000;
/** The tools' runtime dependencies (issue 10 asked for zod only; signal-exit came with host-end cleanup, issue 9). */
const RUNTIME_DEPENDENCIES = ["json-rpc-2.0", "re2js", "signal-exit", "zod"];
/** The kit's own runtime: none of these may reach a user of the tools. */
const KIT_ONLY = ["@cucumber/cucumber", "tsx", "esbuild"];
/** A feature with no @slow scenario; its @pty scenarios are left out, since the installs have no node-pty. */
const KIT_FEATURE = "features/session_ids_and_names.feature";
/** What the server's package needs besides the tools package (and what that one needs). */
const MCP_DEPENDENCIES = ["@modelcontextprotocol/sdk", "langchain-exec-process", "zod"];
const TOOLS_AND_PEERS = ["langchain-exec-process", "@langchain/core", "langchain"];
const KIT_NAME = "exec-process-conformance";

interface Run { code: number | null; stdout: string; stderr: string }
interface PackResult { filename: string; files: Array<{ path: string }> }

/** Runs a command to its end; the environment leaves out the test runner's own variables. */
function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  const env: Record<string, string> = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: process.env["HOME"] ?? tmpdir(), ...extraEnv };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Packs the folders with one `npm pack` (the same tarballs, byte for byte, as one run in each folder, for 60% of
 * the CPU); the results are in the folders' order.
 */
async function pack(folders: string[], destination: string): Promise<PackResult[]> {
  const result = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination, ...folders], ROOT);
  if (result.code !== 0) throw new Error(`npm pack of ${folders.join(", ")} failed:\n${result.stderr}`);
  const packs = JSON.parse(result.stdout) as PackResult[];
  expect(packs).toHaveLength(folders.length);
  return packs;
}

/** A project as `npm init -y` makes it: CommonJS. */
async function newProject(folder: string): Promise<void> {
  const init = await run("npm", ["init", "-y"], folder);
  if (init.code !== 0) throw new Error(`npm init -y in ${folder} failed:\n${init.stderr}`);
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Record<string, unknown>;
  expect(manifest["type"] ?? "commonjs").toBe("commonjs");
}

function setProjectType(folder: string, type: "module"): void {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(folder, "package.json"), JSON.stringify({ ...manifest, type }));
}

/** Installs the given tarballs and (unless `withPeers` is false) the peers, at the peer versions the repository uses. */
async function install(folder: string, specs: string[], env: Record<string, string>, withPeers = true): Promise<void> {
  const peers = withPeers ? ["@langchain/core", "langchain"].map((name) => `${name}@${versionInRepository(name)}`) : [];
  const result = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...specs, ...peers], folder, env);
  if (result.code !== 0) throw new Error(`npm install in ${folder} failed:\n${result.stderr.slice(-3000)}`);
}

/**
 * A copy of an installed project (`cp -a`: node's own copy takes over ten times its CPU), as if the same npm install
 * had run in it: npm's tree of a tarball install does not depend on the folder's name.
 */
async function copyProject(from: string, to: string): Promise<void> {
  const result = await run("cp", ["-a", `${from}/.`, to], from);
  if (result.code !== 0) throw new Error(`cp -a ${from} ${to} failed:\n${result.stderr}`);
}

function versionInRepository(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

const NO_COMPILER = { CC: "/bin/false", CXX: "/bin/false" };
let work: string;
let toolsPack: PackResult;
let kitPack: PackResult;
let mcpPack: PackResult;
/** The tools alone, in a CommonJS project. */
let toolsDir: string;
/** The tools' install with the kit and the MCP server added, in an ES-module project. */
let kitDir: string;
/** The MCP server and the tools package it depends on, without LangChain. */
let mcpDir: string;

// The build is the current sources' (test/global-setup.ts).
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "package-check-"));
  [toolsPack, kitPack, mcpPack] = await pack([ROOT, KIT_SOURCE, MCP_SOURCE], work) as [PackResult, PackResult, PackResult];
  toolsDir = mkdtempSync(join(work, "tools-"));
  kitDir = mkdtempSync(join(work, "kit-"));
  mcpDir = mkdtempSync(join(work, "mcp-"));
  const toolsTarball = join(work, toolsPack.filename);
  // The kit and the server go into a copy of the tools' install: unpacking the tools and LangChain a second time was
  // a third of the kit project's install (its CPU).
  const toolsThenKit = async (): Promise<void> => {
    await newProject(toolsDir);
    await install(toolsDir, [toolsTarball], NO_COMPILER);
    await copyProject(toolsDir, kitDir);
    setProjectType(kitDir, "module");
    await install(kitDir, [join(work, kitPack.filename), join(work, mcpPack.filename)], NO_COMPILER);
  };
  const mcpAlone = async (): Promise<void> => {
    await newProject(mcpDir);
    await install(mcpDir, [join(work, mcpPack.filename), toolsTarball], NO_COMPILER, false);
  };
  await Promise.all([toolsThenKit(), mcpAlone()]);
}, SETUP_TIMEOUT_MS);

// Three installs of node_modules: on a loaded machine removing them took over vitest's 60 s hook limit (seen in CI).
// `rm -rf` removes them for a third of the CPU of node's rm.
afterAll(async () => {
  if (!work) return;
  const removal = await run("rm", ["-rf", work], tmpdir());
  if (removal.code !== 0) throw new Error(`rm -rf ${work} failed:\n${removal.stderr}`);
}, SETUP_TIMEOUT_MS);

describe("npm pack", () => {
  it("packs the tools as the compiled tools, their sources, the session host's bin, the specification, README, LICENSE and package.json", () => {
    const outside = toolsPack.files.map((file) => file.path)
      .filter((path) => !/^(dist\/src\/|src\/|bin\/exec-process-host\.mjs$|docs\/SPEC\.md$|README\.md$|LICENSE$|package\.json$)/.test(path));
    expect(outside).toEqual([]);
    expect(toolsPack.files.map((file) => file.path)).toEqual(expect.arrayContaining([
      "dist/src/index.js", "dist/src/index.d.ts", "dist/src/host/cli.js", "bin/exec-process-host.mjs", "LICENSE", "docs/SPEC.md",
    ]));
  });

  it("packs the kit as compiled JavaScript with its types, features and documents: no TypeScript, tests, reports or fixtures", () => {
    const paths = kitPack.files.map((file) => file.path);
    const unexpected = paths.filter((path) => /(^|\/)(test|tests|reports|fixtures)\//.test(path) || (/\.[cm]?ts$/.test(path) && !path.endsWith(".d.ts")));
    expect(unexpected).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining([
      "conformance/bin.mjs", "conformance/cli.js", "conformance/index.d.ts", "conformance/stdio-server.mjs",
      "conformance/adapters/stdio-server.js", "conformance/PROTOCOL.md", "step-definitions/support/hooks.js",
      KIT_FEATURE, "docs/SPEC.md", "docs/editions/zh.md", "conformance/catalog/documentation-map.json", "LICENSE", "README.md",
    ]));
  });
});

describe("the tools package, installed without a C compiler", () => {
  let installed: InstalledPackage[];
  beforeAll(() => {
    installed = installedPackages(toolsDir);
  });

  it("holds none of the kit's packages, and node-pty is left out", () => {
    expect(KIT_ONLY.filter((name) => existsSync(join(toolsDir, "node_modules", name)))).toEqual([]);
    expect(existsSync(join(toolsDir, "node_modules/node-pty"))).toBe(false);
  });

  it("declares zod, signal-exit, json-rpc-2.0 (the session host's protocol) and re2js (watch patterns) as its only runtime dependencies, node-pty as optional, LangChain as peers", () => {
    const manifest = JSON.parse(readFileSync(join(toolsDir, "node_modules/langchain-exec-process/package.json"), "utf8")) as Record<string, Record<string, string>>;
    expect(Object.keys(manifest["dependencies"] ?? {})).toEqual(RUNTIME_DEPENDENCIES);
    expect(Object.keys(manifest["optionalDependencies"] ?? {})).toEqual(["node-pty"]);
    expect(Object.keys(manifest["peerDependencies"] ?? {})).toEqual(expect.arrayContaining(["@langchain/core", "langchain"]));
  });

  it("adds only itself and its declared dependencies to what the peers install", () => {
    const declared = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
    const beyond = packagesBeyond(installed, ["@langchain/core", "langchain"]);
    const names = beyond.map((pkg) => pkg.name);
    expect(names).toContain("langchain-exec-process");
    expect(names.filter((name) => name !== "langchain-exec-process" && !declared.includes(name))).toEqual([]);
    const megabytes = beyond.reduce((sum, pkg) => sum + pkg.bytes, 0) / 1e6;
    console.log(`tools install: ${installed.length} packages; beyond the peers ${beyond.length} (${names.join(", ")}), ${megabytes.toFixed(2)} MB`);
  });

  it("runs exec from a plain-node script, and pty: true falls back to pipes with the PTY-05 warning", async () => {
    const [plain, pty] = await execFromPlainNode(toolsDir);
    expect(plain).toEqual({ pty: false, text: "packaged\npipes", status: "completed", exitCode: 0 });
    expect(pty).toMatchObject({ pty: true, status: "completed", exitCode: 0 });
    // One clean line: the missing module named, no file paths, no stack.
    expect(pty!.text).toMatch(/^Warning: PTY spawn failed \([^\n/]*node-pty[^\n/]*\); retrying without PTY for `[^\n]+`\.\n\n\n\npackaged\npipes$/);
  });

  it("runs pty: true in a terminal once node-pty is there (the repository's build of it, linked in)", async () => {
    symlinkSync(join(ROOT, "node_modules/node-pty"), join(toolsDir, "node_modules/node-pty"), "dir");
    try {
      const [plain, pty] = await execFromPlainNode(toolsDir);
      expect(plain).toEqual({ pty: false, text: "packaged\npipes", status: "completed", exitCode: 0 });
      expect(pty).toEqual({ pty: true, text: "packaged\r\nterminal", status: "completed", exitCode: 0 });
    } finally {
      unlinkSync(join(toolsDir, "node_modules/node-pty"));
    }
  });
});

describe("langchain-exec-process from a CommonJS and from an ES-module project", () => {
  const script = (load: string) => [
    load,
    'const { tools, dispose } = createExecTools({ agentName: "check" });',
    "(async () => {",
    '  const message = await tools[0].invoke({ type: "tool_call", id: "call-1", name: "exec", args: { command: "echo packaged" } });',
    "  console.log(JSON.stringify({ text: message.content, status: message.artifact.status }));",
    "  await dispose();",
    "})();",
  ].join("\n");

  it("require()s the package and runs exec in a project made by npm init -y (Node >= 20.19: require of an ES module)", async () => {
    writeFileSync(join(toolsDir, "require-check.js"), script('const { createExecTools } = require("langchain-exec-process");'));
    const result = await run(process.execPath, ["require-check.js"], toolsDir);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ text: "packaged", status: "completed" });
  });

  it("imports the package and runs exec in a project of type module", async () => {
    writeFileSync(join(kitDir, "import-check.js"), script('import { createExecTools } from "langchain-exec-process";'));
    const result = await run(process.execPath, ["import-check.js"], kitDir);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ text: "packaged", status: "completed" });
  });
});

interface ExecOutcome { pty: boolean; text: string; status: string; exitCode: number }

/** Runs one command with and without `pty: true` through the installed package, from a plain-node script. */
async function execFromPlainNode(folder: string): Promise<ExecOutcome[]> {
  writeFileSync(join(folder, "exec-check.mjs"), [
    'import { createSessionEngine, ExecToolkit } from "langchain-exec-process";',
    "const engine = createSessionEngine();",
    'const { exec } = new ExecToolkit({ engine, agentName: "check" });',
    'const command = "echo packaged; tty -s && echo terminal || echo pipes";',
    "const results = [];",
    "for (const pty of [false, true]) {",
    '  const message = await exec.invoke({ type: "tool_call", id: `call-${pty}`, name: "exec", args: { command, pty } });',
    "  results.push({ pty, text: message.content, status: message.artifact.status, exitCode: message.artifact.exitCode });",
    "}",
    "await engine.dispose();",
    "console.log(JSON.stringify(results));",
  ].join("\n"));
  const result = await run(process.execPath, ["exec-check.mjs"], folder);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ExecOutcome[];
}

describe("the conformance kit, installed", () => {
  const kitBin = () => join(kitDir, "node_modules/exec-process-conformance/conformance/bin.mjs");
  const kitFeature = () => join(kitDir, "node_modules/exec-process-conformance", KIT_FEATURE);

  it("holds neither tsx nor esbuild", () => {
    expect(["tsx", "esbuild"].filter((name) => existsSync(join(kitDir, "node_modules", name)))).toEqual([]);
  });

  it("refuses a TypeScript adapter without tsx with a message that says to install it", async () => {
    writeFileSync(join(kitDir, "typed-adapter.ts"), 'export default () => { throw new Error("never loaded"); };\n');
    // One worker, the kit's own process, loads the adapter: no worker processes start only to refuse it.
    const result = await run(process.execPath, [
      kitBin(), "--adapter", "typed-adapter.ts", "--paths", kitFeature(), "--tags", "@ID-01", "--parallel", "1",
    ], kitDir);
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain("is TypeScript: install tsx (npm install --save-dev tsx) to load it, or pass its compiled JavaScript.");
  }, KIT_RUN_TIMEOUT_MS);

  // The stdio run takes a few of the feature's rules only: it starts one server per scenario. The in-process run takes
  // every scenario: without node-pty the reference offers no "pty" capability, so @pty scenarios are not applicable.
  it.each([
    ["in-process, against the reference adapter", undefined, []],
    ["over stdio, against the packaged stdio server", "(@ID-01 or @NAME-01) and not @pty",
      ["--command", "node node_modules/exec-process-conformance/conformance/stdio-server.mjs"]],
  ])("runs one feature with plain node, %s", async (label, tags, extra) => {
    const report = join(kitDir, `report-${label.split(",")[0]}`);
    const result = await run(process.execPath, [
      // One worker: the scenarios run in the kit's own process, which spares loading the kit again in a worker.
      kitBin(), "--paths", kitFeature(), ...(tags ? ["--tags", tags] : []), "--parallel", "1", "--tolerance", "1500",
      "--report", report, ...extra,
    ], kitDir);
    expect(result.stderr).not.toMatch(/tsx|esbuild/);
    // The kit's own account of a failed scenario, so that a failure here says which one and why.
    expect(result.code, `${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`).toBe(0);
    const junit = readFileSync(join(report, "junit.xml"), "utf8");
    expect(junit.match(/<testcase\b/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(junit).not.toMatch(/<(failure|error)\b/);
    const matrix = JSON.parse(readFileSync(join(report, "compliance.json"), "utf8")) as {
      rows: Array<{ scenarios: Array<{ status: string; capabilities?: string[] }> }>;
    };
    const skipped = matrix.rows.flatMap((row) => row.scenarios).filter((scenario) => scenario.status !== "passed" && scenario.status !== "not run");
    expect(skipped.every((scenario) => scenario.status === "not applicable" && scenario.capabilities?.includes("@pty"))).toBe(true);
    if (!tags) expect(skipped.length).toBeGreaterThan(0);
  }, KIT_RUN_TIMEOUT_MS);
});

describe("exec-process-mcp, packed and installed", () => {
  it("packs compiled JavaScript with its types, the bin script, README and LICENSE: no TypeScript sources", () => {
    const paths = mcpPack.files.map((file) => file.path);
    expect(paths.filter((path) => /\.[cm]?ts$/.test(path) && !path.endsWith(".d.ts"))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(["dist/exec-process-mcp.mjs", "dist/cli.js", "dist/index.d.ts", "README.md", "LICENSE", "package.json"]));
  });

  it("depends on the MCP SDK and the tools package of its own version, which does not depend on the SDK", () => {
    const manifest = (name: string) => JSON.parse(readFileSync(join(kitDir, "node_modules", name, "package.json"), "utf8")) as {
      version: string; dependencies?: Record<string, string>;
    };
    const server = manifest("exec-process-mcp");
    expect(Object.keys(server.dependencies ?? {}).sort()).toEqual(MCP_DEPENDENCIES);
    expect(server.dependencies?.["langchain-exec-process"]).toBe(manifest("langchain-exec-process").version);
    expect(Object.keys(manifest("langchain-exec-process").dependencies ?? {})).not.toContain("@modelcontextprotocol/sdk");
  });

  it("adds the server, the SDK and the SDK's own dependencies to what the tools package installs", () => {
    const installed = installedPackages(kitDir);
    // The kit is installed beside the server here only to check it: what neither the tools nor the server need.
    const kitOnly = packagesBeyond(installed, [...TOOLS_AND_PEERS, "exec-process-mcp"]).map((pkg) => pkg.location);
    const beyond = packagesBeyond(installed.filter((pkg) => !kitOnly.includes(pkg.location)), TOOLS_AND_PEERS);
    const names = beyond.map((pkg) => pkg.name);
    expect(names).toEqual(expect.arrayContaining(["exec-process-mcp", "@modelcontextprotocol/sdk"]));
    expect(names).not.toContain(KIT_NAME);
    const megabytes = beyond.reduce((sum, pkg) => sum + pkg.bytes, 0) / 1e6;
    const own = beyond.find((pkg) => pkg.name === "exec-process-mcp")!.bytes / 1e3;
    console.log(`exec-process-mcp install beyond the tools package and its peers: ${beyond.length} packages, ${megabytes.toFixed(2)} MB (the server itself ${own.toFixed(0)} kB)`);
  });

  // The bin npm linked, started by the kit once per scenario: `npx` would add its own start to each (the last test
  // here starts the server with npx).
  const MCP_BIN = "node_modules/.bin/exec-process-mcp";

  it("passes the installed kit's check as an MCP server (--mcp)", async () => {
    const report = join(work, "kit-report-mcp");
    const result = await run(process.execPath, [
      join(kitDir, "node_modules", KIT_NAME, "conformance/bin.mjs"), "--mcp", MCP_BIN,
      "--paths", join(kitDir, "node_modules", KIT_NAME, KIT_FEATURE), "--tags", "(@ID-01 or @NAME-01) and not @pty", "--parallel", "1",
      "--tolerance", "1500", "--report", report,
    ], kitDir);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const junit = readFileSync(join(report, "junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuite [^>]*tests="[1-9]/);
    expect(junit).not.toMatch(/<(failure|error)\b/);
    expect(JSON.parse(readFileSync(join(report, "compliance.json"), "utf8")).run.adapterName).toBe(`mcp: ${MCP_BIN}`);
  }, KIT_RUN_TIMEOUT_MS);

  it("installs without LangChain: neither @langchain/core nor langchain is in the project (issue 36)", () => {
    expect(["@langchain/core", "langchain"].filter((name) => existsSync(join(mcpDir, "node_modules", name)))).toEqual([]);
    expect(existsSync(join(mcpDir, "node_modules/exec-process-mcp/package.json"))).toBe(true);
  });

  it("answers tools/list and exec as `npx exec-process-mcp` in the project without LangChain", async () => {
    const transport = new StdioClientTransport({
      command: "npx", args: ["--no-install", "exec-process-mcp", "--cwd", mcpDir], cwd: mcpDir, stderr: "pipe",
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: process.env["HOME"] ?? tmpdir() },
    });
    const client = new Client({ name: "package-check", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "exec-process-mcp", version: mcpPack.filename.match(/-(\d+\.\d+\.\d+)\.tgz$/)![1] });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
      const result = await client.callTool({ name: "exec", arguments: { command: "echo installed" } });
      expect(result).toMatchObject({ content: [{ type: "text", text: "installed" }], structuredContent: { status: "completed", exitCode: 0 } });
    } finally {
      await client.close();
    }
  });
});
