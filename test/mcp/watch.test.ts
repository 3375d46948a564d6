// exec-process-mcp --watch-tool (issue 34): the watch tool over stdio, its `Output matched` event in front of the next
// tool result, as exit events are; without the flag the tools stay exec and process.
import { describe, expect, it } from "vitest";
import { WATCH_DESCRIPTION } from "../../src/tool-spec/descriptions.js";
import { call, stdioServerTests, texts } from "./helpers.js";

const { connect: server } = stdioServerTests();

describe("exec-process-mcp --watch-tool", () => {
  it("offers watch only with the flag", async () => {
    const plain = await server();
    expect((await plain.client.listTools()).tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
    const watching = await server(["--watch-tool"]);
    const { tools } = await watching.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["exec", "process", "watch"]);
    expect(tools[2]!.description).toBe(WATCH_DESCRIPTION);
    expect(tools[2]!.inputSchema).toMatchObject({ required: ["sessionId", "pattern"] });
  });

  it("puts the `Output matched` event in front of the next tool result", async () => {
    const { client } = await server(["--watch-tool"]);
    const started = await call(client, "exec", { command: "sleep 0.5; echo 'server ready'; sleep 30", background: true });
    const sessionId = started.structuredContent!["sessionId"] as string;
    const watched = await call(client, "watch", { sessionId, pattern: "ready" });
    expect(watched.isError).toBe(false);
    expect(watched.structuredContent).toMatchObject({ status: "running", sessionId, watch: { state: "watching" } });
    let seen: string[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && seen[0]?.startsWith("System:") !== true;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = texts(await call(client, "process", { action: "list" }));
    }
    expect(seen[0]).toBe(`System: Output matched (${sessionId}): server ready`);
    await call(client, "process", { action: "kill", sessionId });
  });

  it("answers a watch argument error as a tool error naming the parameter", async () => {
    const { client } = await server(["--watch-tool"]);
    const started = await call(client, "exec", { command: "sleep 30", background: true });
    const sessionId = started.structuredContent!["sessionId"] as string;
    const result = await call(client, "watch", { sessionId, pattern: "(", regex: true });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/^Invalid watch pattern "\(": missing closing \)/);
    await call(client, "process", { action: "kill", sessionId });
  });
});
