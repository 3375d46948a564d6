// The kit's MCP adapter starts one server per scope. The timing rules measure a call (the kit times instance.call),
// so a scope's server must be started by prepare(), before the kit times the scope's first call: a scenario whose
// first call in scope "beta" must return within 100 ms failed on a loaded CI machine, where the server start took
// 1.7 s of that call.
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpAdapter } from "../../conformance/adapters/mcp-client.js";
import type { AdapterInstance } from "../../conformance/adapter.js";
import { SERVER_BIN, testWorkspace, type Workspace } from "./helpers.js";

/** Server processes of this workspace: node processes running the bin with the workspace as --cwd. */
function serversOf(cwd: string): number {
  let count = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // ended meanwhile
    }
    if (argv.some((arg) => arg.endsWith("exec-process-mcp.mjs")) && argv.includes(cwd) && /node$/.test(argv[0] ?? "")) count += 1;
  }
  return count;
}

describe("the kit's MCP adapter", () => {
  let workspace: Workspace | undefined;
  let instance: AdapterInstance | undefined;
  afterEach(async () => {
    await instance?.dispose();
    await instance?.close?.();
    if (workspace) expect(serversOf(workspace.cwd)).toBe(0);
    workspace?.remove();
  });

  it("starts a scope's server in prepare(), before the scope's first call is timed, and only once", async () => {
    workspace = testWorkspace();
    const adapter = createMcpAdapter({ command: `"${process.execPath}" "${SERVER_BIN}"`, callTimeoutMs: 20_000 });
    instance = await adapter.start({ env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" }, config: {}, cwd: workspace.cwd });
    expect(serversOf(workspace.cwd)).toBe(1); // "main", started with the instance
    await instance.prepare?.({ scope: "beta" });
    expect(serversOf(workspace.cwd)).toBe(2);
    const outcome = await instance.call("process", { action: "poll", sessionId: "nope" }, { scope: "beta" });
    expect(outcome).toMatchObject({ kind: "result", text: "No session found for nope" });
    expect(serversOf(workspace.cwd)).toBe(2);
  });
});
