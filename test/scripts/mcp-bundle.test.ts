// scripts/mcp-bundle.cjs: the repository's MCP server started from its bundle with no freshness check (the kit's MCP
// pass checks once for all its starts). It must be the same server as mcp/exec-process-mcp.mjs: the same name,
// version, tools and results, with nothing but MCP messages on stdout.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, expect, it } from "vitest";
import { connectStdio, serverEnv, testWorkspace, type Connected } from "../mcp/helpers.js";

const LAUNCHER = fileURLToPath(new URL("../../scripts/mcp-bundle.cjs", import.meta.url));
const workspace = testWorkspace();
const open: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});
afterAll(() => workspace.remove());

async function viaLauncher(): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [LAUNCHER, "--cwd", workspace.cwd], env: serverEnv(), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "launcher-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr };
}

it("is the server that exec-process-mcp.mjs starts: same identity, tools and schemas", async () => {
  const { client } = await viaLauncher();
  const entry: Connected = await connectStdio(["--cwd", workspace.cwd]);
  open.push(entry);
  expect(client.getServerVersion()).toEqual(entry.client.getServerVersion());
  expect(client.getServerVersion()?.name).toBe("exec-process-mcp");
  const [viaBundle, viaEntry] = await Promise.all([client.listTools(), entry.client.listTools()]);
  expect(viaBundle.tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
  expect(viaBundle).toEqual(viaEntry);
});

it("runs a command in the given working directory and says on stderr, not stdout, that it is not sandboxed", async () => {
  const { client, stderr } = await viaLauncher();
  const result = await client.callTool({ name: "exec", arguments: { command: "pwd; echo from-bundle" } });
  expect(result).toMatchObject({
    content: [{ type: "text", text: `${workspace.cwd}\nfrom-bundle` }],
    structuredContent: { status: "completed", exitCode: 0 },
  });
  expect(stderr()).toContain("exec-process-mcp: no sandbox");
});
