// exec-process-mcp over stdio, driven by the MCP SDK's own Client: the tools as LangChain defines them, background
// sessions, exit events in results and as notifications, errors as tool errors, and clean ends.
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { describe, expect, it } from "vitest";
import { createSessionEngine, ExecToolkit } from "../../src/index.js";
import { EXEC_DESCRIPTION, PROCESS_DESCRIPTION } from "../../src/tool-spec/descriptions.js";
import * as messages from "../../src/engine/messages.js";
import {
  call, connectStdio, markerProcessesNow, processesWithMarker, serverEnv, stdioServerTests, texts, until,
} from "./helpers.js";

const { workspace, connect: server } = stdioServerTests();

describe("tools/list", () => {
  it("offers exec and process with the LangChain tools' descriptions, JSON schemas and a status output schema", async () => {
    const { client } = await server();
    const { tools } = await client.listTools();
    const engine = createSessionEngine({ cleanup: false });
    const toolkit = new ExecToolkit({ engine });
    expect(tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
    expect(tools[0]!.description).toBe(EXEC_DESCRIPTION);
    expect(tools[1]!.description).toBe(PROCESS_DESCRIPTION);
    expect(tools[0]!.inputSchema).toEqual(toJsonSchema(toolkit.exec.schema));
    expect(tools[1]!.inputSchema).toEqual(toJsonSchema(toolkit.process!.schema));
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: "object", required: ["status"] });
    await engine.dispose();
  });

  it("offers exec alone, in its synchronous form, with --no-process-tool", async () => {
    const { client } = await server(["--no-process-tool"]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["exec"]);
    expect(Object.keys(tools[0]!.inputSchema.properties ?? {})).not.toContain("background");
  });
});

describe("tools/call", () => {
  it("returns a completed command's text and its details as structuredContent", async () => {
    const { client } = await server();
    const result = await call(client, "exec", { command: "printf 'one\\ntwo'" });
    expect(result.isError).toBe(false);
    expect(texts(result)).toEqual(["one\ntwo"]);
    expect(result.structuredContent).toMatchObject({ status: "completed", exitCode: 0, cwd: workspace.cwd });
  });

  it("starts a background exec and polls it to its end with process", async () => {
    const { client } = await server(["--no-events-in-results"]);
    const started = await call(client, "exec", { command: "echo polled-output", background: true });
    expect(started.structuredContent).toMatchObject({ status: "running" });
    const sessionId = started.structuredContent!["sessionId"] as string;
    expect(texts(started)[0]).toMatch(new RegExp(`^Command still running \\(session ${sessionId}, pid \\d+\\)`));
    let polled = await call(client, "process", { action: "poll", sessionId, timeout: 20_000 });
    const output = [...texts(polled)];
    for (let polls = 1; polled.structuredContent!["status"] === "running" && polls < 10; polls += 1) {
      polled = await call(client, "process", { action: "poll", sessionId, timeout: 20_000 });
      output.push(...texts(polled));
    }
    expect(polled.structuredContent).toMatchObject({ status: "completed", sessionId, exitCode: 0 });
    expect(output.join("\n")).toContain("polled-output");
    expect(texts(polled).at(-1)).toContain(messages.processExitedWith("code 0"));
  });

  it("answers a failed command as a tool error that keeps its details", async () => {
    const { client } = await server();
    const result = await call(client, "exec", { command: "no-such-command-xyz" });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: "failed", exitCode: 127, failureKind: "shell-command-not-found" });
    expect(texts(result)[0]).toMatch(new RegExp(`no-such-command-xyz: .*not found\n\n${messages.COMMAND_NOT_FOUND}$`));
  });

  it.each([
    ["a rejected call gives the engine's documented text", "exec", { command: "" }, messages.MISSING_COMMAND],
    ["an unknown session gives the documented text", "process", { action: "poll", sessionId: "no-such" }, messages.noSession("no-such")],
    ["arguments against the schema give the clean schema text", "exec", { command: 5 },
      "Invalid exec arguments: command: expected string, received number. Fix these fields to match the exec schema and call exec again."],
    ["an unknown tool names the ones there are", "shell", { command: "true" }, messages.unknownTool("shell", ["exec", "process"])],
  ])("%s, as a tool error", async (_title, tool, args, text) => {
    const { client } = await server();
    const result = await call(client, tool, args);
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual([text]);
  });
});

describe("exit events", () => {
  it("puts a background session's exit event in front of the next result as a System line, exactly once", async () => {
    const { client, noticeContaining } = await server();
    const started = await call(client, "exec", { command: "echo event-body", background: true });
    const sessionId = started.structuredContent!["sessionId"] as string;
    const notice = await noticeContaining("event-body");
    expect(notice).toMatchObject({ sessionId, contextKey: `exec:${sessionId}` });
    expect(notice.text).toBe(`Exec completed (${sessionId.slice(0, 8)}, code 0) :: event-body`);
    const next = await call(client, "exec", { command: "echo next" });
    expect(texts(next)).toEqual([`System: ${notice.text}`, "next"]);
    const after = await call(client, "exec", { command: "echo after" });
    expect(texts(after)).toEqual(["after"]);
  });

  it("leaves out of the next result the event of a session whose exit a poll reported (NOTIFY-13)", async () => {
    const { client, noticeContaining } = await server();
    const started = await call(client, "exec", { command: "sleep 0.3; echo reported-by-poll", background: true });
    const sessionId = started.structuredContent!["sessionId"] as string;
    let polled = await call(client, "process", { action: "poll", sessionId, timeout: 20_000 });
    for (let polls = 1; polled.structuredContent!["status"] === "running" && polls < 10; polls += 1) {
      polled = await call(client, "process", { action: "poll", sessionId, timeout: 20_000 });
    }
    expect(polled.structuredContent).toMatchObject({ status: "completed", exitCode: 0 });
    await noticeContaining("reported-by-poll"); // the notification went out when the event was queued
    expect(texts(await call(client, "exec", { command: "echo next" }))).toEqual(["next"]);
  });

  it("sends the notification but leaves results alone with --no-events-in-results", async () => {
    const { client, noticeContaining } = await server(["--no-events-in-results"]);
    await call(client, "exec", { command: "echo quiet-event", background: true });
    await noticeContaining("quiet-event");
    expect(texts(await call(client, "exec", { command: "echo plain" }))).toEqual(["plain"]);
  });
});

describe("ends", () => {
  it("ends the session's processes when the client closes stdin", async () => {
    const connected = await connectStdio(["--cwd", workspace.cwd]);
    const started = await call(connected.client, "exec", {
      command: "sleep 60", background: true, env: { CONFORMANCE_SCENARIO: workspace.marker },
    });
    expect(markerProcessesNow(workspace.marker)).toContain(started.structuredContent!["pid"]);
    await connected.close();
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
  });

  it("ends a cancelled call's process group", async () => {
    const { client } = await server();
    const controller = new AbortController();
    const pending = client.callTool({ name: "exec", arguments: { command: "sleep 60", env: { CONFORMANCE_SCENARIO: workspace.marker } } },
      undefined, { signal: controller.signal });
    await until(() => markerProcessesNow(workspace.marker, "sleep").length === 1, "the marked sleep's start");
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
  });

  it("ends every process on SIGTERM before it exits", async () => {
    const connected = await connectStdio(["--cwd", workspace.cwd], serverEnv());
    await call(connected.client, "exec", { command: "sleep 60", background: true, env: { CONFORMANCE_SCENARIO: workspace.marker } });
    const pid = connected.transport.pid!;
    const exited = new Promise<void>((resolve) => {
      connected.transport.onclose = () => resolve();
    });
    process.kill(pid, "SIGTERM");
    await exited;
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
  });
});
