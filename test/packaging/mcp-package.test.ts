// The MCP server's package as a user gets it (issue 22): the tools, the server and the kit packed from the build,
// installed from their tarballs in a fresh project (no C compiler, so without node-pty); `npx exec-process-mcp`
// answers an MCP client's tools/list, and the installed kit checks the installed server with --mcp.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBuildFresh } from "../../scripts/build-manifest.mjs";
import { installedPackages, packagesBeyond } from "./installed-packages.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const MCP_SOURCE = join(ROOT, "packages/mcp");
const KIT_SOURCE = join(ROOT, "packages/conformance");
/** A feature with no @slow scenario, run by the installed kit against the installed server. */
const KIT_FEATURE = "features/session_ids_and_names.feature";
const SETUP_TIMEOUT_MS = 600_000;
/** What the server's package needs besides the tools package (and what that one needs). */
const MCP_DEPENDENCIES = ["@modelcontextprotocol/sdk", "langchain-exec-process"];
const TOOLS_AND_PEERS = ["langchain-exec-process", "@langchain/core", "langchain"];
/** The kit, installed beside the server here only to check it: not part of the server's install. */
const KIT = "exec-process-conformance";

interface Run { code: number | null; stdout: string; stderr: string }
interface PackResult { filename: string; files: Array<{ path: string }> }

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

async function pack(folder: string, destination: string): Promise<PackResult> {
  const result = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination], folder);
  if (result.code !== 0) throw new Error(`npm pack in ${folder} failed:\n${result.stderr}`);
  return (JSON.parse(result.stdout) as PackResult[])[0]!;
}

let work: string;
let project: string;
let mcpPack: PackResult;

beforeAll(async () => {
  if (!isBuildFresh(ROOT)) {
    const build = await run(process.execPath, ["scripts/build.mjs"], ROOT);
    if (build.code !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
  }
  work = mkdtempSync(join(tmpdir(), "mcp-package-check-"));
  const toolsPack = await pack(ROOT, work);
  mcpPack = await pack(MCP_SOURCE, work);
  const kitPack = await pack(KIT_SOURCE, work);
  project = mkdtempSync(join(work, "project-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "mcp-install-check", version: "1.0.0", private: true }));
  // Only the tarballs: npm installs the peers (@langchain/core, langchain) itself.
  const tarballs = [toolsPack, mcpPack, kitPack].map((packed) => join(work, packed.filename));
  const install = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs], project, { CC: "/bin/false", CXX: "/bin/false" });
  if (install.code !== 0) throw new Error(`npm install failed:\n${install.stderr.slice(-3000)}`);
}, SETUP_TIMEOUT_MS);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("exec-process-mcp, packed and installed", () => {
  it("packs compiled JavaScript with its types, the bin script, README and LICENSE: no TypeScript sources", () => {
    const paths = mcpPack.files.map((file) => file.path);
    expect(paths.filter((path) => /\.[cm]?ts$/.test(path) && !path.endsWith(".d.ts"))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(["dist/exec-process-mcp.mjs", "dist/cli.js", "dist/index.d.ts", "README.md", "LICENSE", "package.json"]));
  });

  it("depends on the MCP SDK and the tools package of its own version, which does not depend on the SDK", () => {
    const manifest = (name: string) => JSON.parse(readFileSync(join(project, "node_modules", name, "package.json"), "utf8")) as {
      version: string; dependencies?: Record<string, string>;
    };
    const server = manifest("exec-process-mcp");
    expect(Object.keys(server.dependencies ?? {}).sort()).toEqual(MCP_DEPENDENCIES);
    expect(server.dependencies?.["langchain-exec-process"]).toBe(manifest("langchain-exec-process").version);
    expect(Object.keys(manifest("langchain-exec-process").dependencies ?? {})).not.toContain("@modelcontextprotocol/sdk");
  });

  it("adds the server, the SDK and the SDK's own dependencies to what the tools package installs", () => {
    const installed = installedPackages(project);
    const kitOnly = packagesBeyond(installed, [...TOOLS_AND_PEERS, "exec-process-mcp"]).map((pkg) => pkg.location);
    const beyond = packagesBeyond(installed.filter((pkg) => !kitOnly.includes(pkg.location)), TOOLS_AND_PEERS);
    const names = beyond.map((pkg) => pkg.name);
    expect(names).toEqual(expect.arrayContaining(["exec-process-mcp", "@modelcontextprotocol/sdk"]));
    const megabytes = beyond.reduce((sum, pkg) => sum + pkg.bytes, 0) / 1e6;
    const own = beyond.find((pkg) => pkg.name === "exec-process-mcp")!.bytes / 1e3;
    console.log(`exec-process-mcp install beyond the tools package and its peers: ${beyond.length} packages, ${megabytes.toFixed(2)} MB (the server itself ${own.toFixed(0)} kB)`);
  });

  it("passes the installed kit's check as an MCP server (--mcp)", async () => {
    const report = join(work, "kit-report");
    const result = await run(process.execPath, [
      join(project, "node_modules", KIT, "conformance/bin.mjs"), "--mcp", "npx --no-install exec-process-mcp",
      "--paths", join(project, "node_modules", KIT, KIT_FEATURE), "--tags", "(@ID-01 or @NAME-01) and not @pty", "--tolerance", "1500", "--report", report,
    ], project);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const junit = readFileSync(join(report, "junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuite [^>]*tests="[1-9]/);
    expect(junit).not.toMatch(/<(failure|error)\b/);
    expect(JSON.parse(readFileSync(join(report, "compliance.json"), "utf8")).run.adapterName).toBe("mcp: npx --no-install exec-process-mcp");
  }, 300_000);

  it("answers tools/list as `npx exec-process-mcp` in the project", async () => {
    const transport = new StdioClientTransport({
      command: "npx", args: ["--no-install", "exec-process-mcp", "--cwd", project], cwd: project, stderr: "pipe",
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
