// The MCP server starts without LangChain (issue 36): neither its bundle nor its compiled modules load @langchain/core,
// which cost a start most of its CPU. The packed server installed without it: test/packaging/packages.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, expect, it } from "vitest";
import { serverEnv } from "./helpers.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const hooks = mkdtempSync(join(tmpdir(), "mcp-no-langchain-"));
afterAll(() => rmSync(hooks, { recursive: true, force: true }));

// The build is the current sources' (test/global-setup.ts).
it("bundles no module of @langchain/* into the server (esbuild names each bundled module's path)", () => {
  const bundle = readFileSync(join(ROOT, "dist/mcp/server.bundle.cjs"), "utf8");
  expect(bundle).toMatch(/^\/\/ node_modules\/@modelcontextprotocol\/sdk\//m); // the check can see a bundled package
  expect(bundle.match(/^\/\/ node_modules\/@langchain\/.*$/m)).toBeNull();
});

it("is plain ASCII, so that each start reads it as a one-byte string (the build turns the comments' other characters into ?)", () => {
  const bundle = readFileSync(join(ROOT, "dist/mcp/server.bundle.cjs"), "utf8");
  expect(bundle).toContain("NOTIFY-01 ? NOTIFY-06"); // a comment's "…", from src/engine/exit-notifier.ts
  expect(bundle.match(/[^\x00-\x7f]/g)).toBeNull();
});

it("serves tools/list and exec from the compiled modules with any import of @langchain/* refused", async () => {
  writeFileSync(join(hooks, "refuse.mjs"), [
    "export async function resolve(specifier, context, next) {",
    "  const resolved = await next(specifier, context);",
    '  if (resolved.url.includes("/node_modules/@langchain/")) throw new Error(`the server loaded ${resolved.url}`);',
    "  return resolved;",
    "}",
  ].join("\n"));
  writeFileSync(join(hooks, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(new URL(`file://${join(hooks, "refuse.mjs")}`).href)});\n`);
  const cli = JSON.stringify(join(ROOT, "dist/mcp/cli.js"));
  const transport = new StdioClientTransport({
    command: process.execPath, stderr: "pipe", env: serverEnv(),
    args: ["--import", join(hooks, "register.mjs"), "--input-type=module", "-e",
      `const { main } = await import(${cli}); process.exit(await main(process.argv.slice(1)));`, "--", "--cwd", hooks],
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name: "no-langchain", version: "1.0.0" });
  try {
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
    expect(await client.callTool({ name: "exec", arguments: { command: "echo served" } })).toMatchObject({ content: [{ type: "text", text: "served" }] });
  } finally {
    await client.close();
  }
  expect(stderr).not.toContain("@langchain");
});
