// The LangChain surface (SPEC §13, LC-01 … LC-24, REG-13), checked through the tools, the toolkit and createAgent.
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { StructuredTool, ToolInputParsingException } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, fakeModel } from "langchain";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createSessionEngine, ExecToolkit, type CallContext, type ExecParams, type SessionEngine, type SessionEngineOptions,
} from "../../src/index.js";

let cwd: string;
const engines: SessionEngine[] = [];

beforeEach(() => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), "toolkit-test-")));
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()));
  rmSync(cwd, { recursive: true, force: true });
});

function newEngine(options: SessionEngineOptions = {}): SessionEngine {
  const engine = createSessionEngine({ cwd, env: { ...process.env, SHELL: "/bin/sh" }, ...options });
  engines.push(engine);
  return engine;
}

function newToolkit(options: Omit<ConstructorParameters<typeof ExecToolkit>[0], "engine"> = {}, engine = newEngine()): ExecToolkit {
  return new ExecToolkit({ engine, ...options });
}

type Config = Parameters<StructuredTool["invoke"]>[1];
let callCount = 0;

/** Invokes a tool with a ToolCall, so the result is a ToolMessage carrying the details as artifact (LC-16). */
async function call(tool: StructuredTool | undefined, args: Record<string, unknown>, config?: Config): Promise<ToolMessage> {
  if (!tool) throw new Error("the toolkit has no such tool");
  callCount += 1;
  const result: unknown = await tool.invoke({ type: "tool_call", id: `call-${callCount}`, name: tool.name, args }, config);
  if (!(result instanceof ToolMessage)) throw new Error(`expected a ToolMessage, got ${String(result)}`);
  return result;
}

const textOf = (message: ToolMessage): string => String(message.content);
const detailsOf = (message: ToolMessage): Record<string, unknown> => message.artifact as Record<string, unknown>;
const sessionIdOf = (message: ToolMessage): string => String(detailsOf(message)["sessionId"]);
const thread = (id: string): Config => ({ configurable: { thread_id: id } });

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const waitUntilExited = (engine: SessionEngine, id: string) => waitFor(() => !engine.liveSessionIds().includes(id));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until a session has printed `text`, reading with log, which drains nothing (LOG-01). */
async function waitForOutput(toolkit: ExecToolkit, id: string, text: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!textOf(await call(toolkit.process, { action: "log", sessionId: id })).includes(text)) {
    if (Date.now() > deadline) throw new Error(`session ${id} did not print ${text}`);
    await sleep(20);
  }
}

/** The JSON schema a model is shown for a tool. */
function jsonSchemaOf(tool: StructuredTool | undefined): { required?: string[]; properties: Record<string, Record<string, unknown>> } {
  return toJsonSchema(tool!.schema as z.ZodType) as never;
}

/** An engine wrapper that records what the tools hand to the engine. */
function recordingEngine(engine: SessionEngine) {
  const execCalls: Array<{ params: ExecParams; ctx: CallContext }> = [];
  const wrapper: SessionEngine = {
    exec: (params, ctx) => {
      execCalls.push({ params, ctx });
      return engine.exec(params, ctx);
    },
    process: (params, ctx) => engine.process(params, ctx),
    drainSystemEvents: (scopeKey) => engine.drainSystemEvents(scopeKey),
    peekSystemEvents: (scopeKey) => engine.peekSystemEvents(scopeKey),
    clearFinishedSessions: (scopeKey) => engine.clearFinishedSessions(scopeKey),
    liveSessionIds: () => engine.liveSessionIds(),
    addWakeListener: (listener) => engine.addWakeListener(listener),
    dispose: () => engine.dispose(),
    get disposed() {
      return engine.disposed;
    },
  };
  return { engine: wrapper, execCalls };
}

const RUNNING_TEXT = (id: string, pid: unknown) =>
  `Command still running (session ${id}, pid ${String(pid)}). Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up.`;

describe("toolkit and tools (LC-01, LC-02)", () => {
  it("LC-01: getTools returns the StructuredTools exec and process, in that order", () => {
    const toolkit = newToolkit();
    const tools = toolkit.getTools();
    expect(tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
    expect(tools.every((tool) => tool instanceof StructuredTool)).toBe(true);
    expect(tools).toEqual([toolkit.exec, toolkit.process]);
  });

  it("LC-02: with processTool false the toolkit offers only exec and toolkit.process is undefined", () => {
    const toolkit = newToolkit({ processTool: false });
    expect(toolkit.getTools().map((tool) => tool.name)).toEqual(["exec"]);
    expect(toolkit.process).toBeUndefined();
  });

  it("LC-02: with processTool false exec runs synchronously past the yield window and never backgrounds", async () => {
    const toolkit = newToolkit({ processTool: false });
    const result = await call(toolkit.exec, { command: "sleep 0.3; echo done", yieldMs: 10 });
    expect(detailsOf(result)).toMatchObject({ status: "completed", exitCode: 0 });
    expect(textOf(result)).toBe("Warning: continuation options are unavailable; running synchronously.\n\n\n\ndone");
    const plain = await call(toolkit.exec, { command: "echo plain" });
    expect(textOf(plain)).toBe("plain");
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
    const lister = newToolkit({}, toolkit.engine);
    expect(textOf(await call(lister.process, { action: "list" }))).toBe("No running or recent sessions.");
  });
});

describe("scopes (LC-03, LC-04)", () => {
  it("LC-03: an explicit scopeKey wins over agentName, agentName gives agent:<name>, otherwise the scope is default", () => {
    const engine = newEngine();
    expect(new ExecToolkit({ engine, scopeKey: "shared", agentName: "builder" }).scopeKey).toBe("shared");
    expect(new ExecToolkit({ engine, agentName: "builder" }).scopeKey).toBe("agent:builder");
    expect(new ExecToolkit({ engine }).scopeKey).toBe("default");
  });

  it("LC-03: both tools of a toolkit use its scope, so a toolkit with the same explicit key sees the sessions", async () => {
    const builder = newToolkit({ agentName: "builder" });
    const sameScope = newToolkit({ scopeKey: "agent:builder" }, builder.engine);
    const otherScope = newToolkit({ agentName: "reviewer" }, builder.engine);
    const started = await call(builder.exec, { command: "sleep 30", background: true });
    const id = sessionIdOf(started);
    expect(textOf(await call(builder.process, { action: "list" }))).toMatch(new RegExp(`^${id} running `));
    expect(textOf(await call(sameScope.process, { action: "list" }))).toMatch(new RegExp(`^${id} running `));
    expect(textOf(await call(otherScope.process, { action: "list" }))).toBe("No running or recent sessions.");
    expect(textOf(await call(otherScope.process, { action: "poll", sessionId: id }))).toBe(`No session found for ${id}`);
  });

  it("LC-04: with scopeFromThread a session started in one thread is invisible from another thread and from the toolkit scope", async () => {
    const toolkit = newToolkit({ agentName: "builder", scopeFromThread: true });
    const started = await call(toolkit.exec, { command: "sleep 30", background: true }, thread("t1"));
    const id = sessionIdOf(started);
    expect(textOf(await call(toolkit.process, { action: "list" }, thread("t1")))).toMatch(new RegExp(`^${id} running `));
    expect(textOf(await call(toolkit.process, { action: "list" }, thread("t2")))).toBe("No running or recent sessions.");
    expect(textOf(await call(toolkit.process, { action: "list" }))).toBe("No running or recent sessions.");
    const threadScope = newToolkit({ scopeKey: "thread:t1" }, toolkit.engine);
    expect(textOf(await call(threadScope.process, { action: "list" }))).toMatch(new RegExp(`^${id} running `));
  });

  it("LC-04: calls without a thread id use the toolkit scope, and without scopeFromThread the thread id is ignored", async () => {
    const scoped = newToolkit({ agentName: "builder", scopeFromThread: true });
    const plain = newToolkit({ agentName: "builder" }, scoped.engine);
    const first = sessionIdOf(await call(scoped.exec, { command: "sleep 30", background: true }));
    const second = sessionIdOf(await call(plain.exec, { command: "sleep 30", background: true }, thread("t1")));
    const listed = textOf(await call(plain.process, { action: "list" }, thread("t2")));
    expect(listed).toContain(first);
    expect(listed).toContain(second);
  });
});

describe("elevation (LC-05)", () => {
  it("LC-05: elevated true is refused by default and runs locally when the toolkit allows elevation", async () => {
    const engine = newEngine();
    const refusing = new ExecToolkit({ engine });
    await expect(refusing.exec.invoke({ command: "echo up", elevated: true })).rejects.toThrow(/^elevated is not available right now \(runtime=direct\)\./);
    const allowing = new ExecToolkit({ engine, allowElevated: true });
    const result = await call(allowing.exec, { command: "echo up", elevated: true });
    expect(textOf(result)).toBe("up");
    expect(detailsOf(result)["status"]).toBe("completed");
  });
});

describe("descriptions (LC-06 … LC-09, LC-14)", () => {
  it("LC-06: the exec description is the reference text", () => {
    expect(newToolkit().exec.description).toBe(
      "Run shell now; background continuation supported. Completed calls return command output directly. Use process only when exec reports running with a sessionId; output text alone is not a process handle. Long run: automatic completion wake when enabled and output/failure occurs; otherwise process confirms completion. TTY CLI/UI/coding agent: pty=true. Quote arguments containing shell metacharacters, including URL query strings with `?` or `&`.",
    );
  });

  it("LC-07: the process description is the reference text", () => {
    expect(newToolkit().process?.description).toBe(
      "Control existing exec: list, poll, log, write, send-keys, submit, paste, kill. poll/log: status, output, quiet success, completion without auto-wake, input hints. Others: input/intervention.",
    );
  });

  it("LC-08: in synchronous mode the exec description mentions neither background continuation nor the process tool", () => {
    const description = newToolkit({ processTool: false }).exec.description;
    expect(description).toBe(
      "Run shell now and return the command output when it finishes. TTY CLI/UI/coding agent: pty=true. Quote arguments containing shell metacharacters, including URL query strings with ? or &.",
    );
    expect(description).not.toMatch(/background|process/);
  });

  it("LC-14: the process timeout parameter has the reference description", () => {
    expect(jsonSchemaOf(newToolkit().process).properties["timeout"]?.["description"]).toBe(
      "Poll wait in milliseconds (max 30000 ms, higher values are clamped to 30000). Polling is for on-demand status, not for wait loops.",
    );
  });

  it("LC-09: descriptions carry the documented guidance on process, pty, poll/log, input actions, the wake and no sleep loops", () => {
    const toolkit = newToolkit();
    const exec = toolkit.exec.description;
    const processText = toolkit.process!.description;
    expect(exec).toContain("process");
    expect(exec).toContain("pty");
    expect(processText).toContain("poll");
    expect(processText).toContain("log");
    expect(String(jsonSchemaOf(toolkit.process).properties["timeout"]?.["description"])).toContain("30000");
    const everything = [exec, processText, ...Object.values(jsonSchemaOf(toolkit.exec).properties), ...Object.values(jsonSchemaOf(toolkit.process).properties)]
      .map((entry) => (typeof entry === "string" ? entry : String(entry["description"] ?? "")))
      .join("\n");
    expect(everything).toMatch(/completion wake/);
    for (const action of ["write", "send-keys", "submit", "paste", "kill"]) expect(processText).toContain(action);
    expect(everything).toMatch(/log before resuming an interactive CLI/);
    expect(everything).toMatch(/sleep loops|wait loops/);
    expect(everything).toMatch(/cron/);
  });
});

describe("schemas (LC-10 … LC-15)", () => {
  it("LC-10, LC-11: the exec schema requires only command and declares every documented parameter with its type", () => {
    const schema = jsonSchemaOf(newToolkit().exec);
    expect(schema.required).toEqual(["command"]);
    const types = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, value["type"]]));
    expect(types).toEqual({
      command: "string", workdir: "string", env: "object", yieldMs: "number", background: "boolean",
      timeoutSeconds: "number", timeout: "number", pty: "boolean", elevated: "boolean", host: "string", node: "string",
      title: "string",
    });
    expect(schema.properties["env"]?.["additionalProperties"]).toEqual({ type: "string" });
    expect(String(schema.properties["timeout"]?.["description"])).toMatch(/deprecated alias of timeoutSeconds/i);
  });

  it("LC-12, LC-13: the process schema requires only action; timeout is a number or a string", () => {
    const schema = z.toJSONSchema(newToolkit().process!.schema as z.ZodType) as { required?: string[]; properties: Record<string, Record<string, unknown>> };
    expect(schema.required).toEqual(["action"]);
    const types = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, value["type"]]));
    expect(types).toEqual({
      action: "string", sessionId: "string", data: "string", eof: "boolean", keys: "array", hex: "array",
      literal: "string", text: "string", bracketed: "boolean", offset: "number", limit: "number",
      timeout: ["number", "string"],
    });
    expect(schema.properties["keys"]?.["items"]).toEqual({ type: "string" });
    expect(schema.properties["hex"]?.["items"]).toEqual({ type: "string" });
  });

  it("LC-10, LC-12: no field carries a default, so none is required because of one", () => {
    for (const tool of newToolkit().getTools()) {
      const schema = jsonSchemaOf(tool);
      for (const property of Object.values(schema.properties)) expect(property).not.toHaveProperty("default");
    }
  });

  it("LC-14: action and host are plain strings, so invalid values reach the tools and produce their own errors", async () => {
    const toolkit = newToolkit();
    expect(jsonSchemaOf(toolkit.process).properties["action"]).not.toHaveProperty("enum");
    expect(jsonSchemaOf(toolkit.exec).properties["host"]).not.toHaveProperty("enum");
    for (const value of ["list", "poll", "log", "write", "send-keys", "submit", "paste", "kill", "clear", "remove"]) {
      expect(String(jsonSchemaOf(toolkit.process).properties["action"]?.["description"])).toContain(value);
    }
    for (const value of ["auto", "sandbox", "gateway", "node"]) expect(String(jsonSchemaOf(toolkit.exec).properties["host"]?.["description"])).toContain(value);
    const invalidAction = await call(toolkit.process, { action: "explode" });
    expect(textOf(invalidAction)).toBe("Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove");
    await expect(toolkit.exec.invoke({ command: "true", host: "moon" })).rejects.toThrow('Invalid exec host "moon". Allowed values: auto, sandbox, gateway, node.');
  });

  it("LC-13: a digit string as process timeout is honored as a poll wait", async () => {
    const toolkit = newToolkit();
    const id = sessionIdOf(await call(toolkit.exec, { command: "sleep 0.3; echo late; sleep 30", background: true }));
    const started = Date.now();
    const polled = await call(toolkit.process, { action: "poll", sessionId: id, timeout: "5000" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(textOf(polled)).toBe("late\n\nProcess still running.");
  });

  it.each([
    ["exec", { command: "true", yieldMs: "100" }],
    ["exec", { command: "true", timeoutSeconds: "5" }],
    ["exec", { command: "true", timeout: "5" }],
    ["exec", { command: 42 }],
    ["exec", { command: "true", background: "yes" }],
    ["process", { action: "log", sessionId: "x", offset: "1" }],
    ["process", { action: "log", sessionId: "x", limit: "2" }],
    ["process", { action: "send-keys", sessionId: "x", keys: "Enter" }],
  ])("LC-13: %s rejects %j with LangChain's ToolInputParsingException and spawns nothing", async (name, args) => {
    const toolkit = newToolkit();
    const tool = name === "exec" ? toolkit.exec : toolkit.process!;
    await expect(tool.invoke({ type: "tool_call", id: "bad", name, args })).rejects.toBeInstanceOf(ToolInputParsingException);
    await expect(tool.invoke(args as never)).rejects.toBeInstanceOf(ToolInputParsingException);
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
  });

  it("LC-15: undeclared properties such as title and ask pass the schema and reach the engine, which ignores them", async () => {
    const { engine, execCalls } = recordingEngine(newEngine());
    const toolkit = new ExecToolkit({ engine });
    const result = await call(toolkit.exec, { command: "echo ok", title: "greeting", ask: "always", security: "deny" });
    expect(textOf(result)).toBe("ok");
    expect(execCalls[0]?.params).toMatchObject({ command: "echo ok", title: "greeting", ask: "always", security: "deny" });
    const listed = await call(toolkit.process, { action: "list", verbose: true });
    expect(textOf(listed)).toBe("No running or recent sessions.");
  });

  it("LC-15: in synchronous mode yieldMs and background are not advertised but still reach the tool and trigger the warning", async () => {
    const { engine, execCalls } = recordingEngine(newEngine());
    const toolkit = new ExecToolkit({ engine, processTool: false });
    const schema = jsonSchemaOf(toolkit.exec);
    expect(Object.keys(schema.properties)).not.toContain("yieldMs");
    expect(Object.keys(schema.properties)).not.toContain("background");
    expect(schema.required).toEqual(["command"]);
    const result = await call(toolkit.exec, { command: "echo hi", background: true });
    expect(execCalls[0]?.params).toMatchObject({ background: true });
    expect(execCalls[0]?.ctx.processToolAvailable).toBe(false);
    expect(textOf(result)).toBe("Warning: continuation options are unavailable; running synchronously.\n\n\n\nhi");
    expect(detailsOf(result)["status"]).toBe("completed");
  });
});

describe("results, errors and progress (LC-16, LC-17, LC-20, LC-21)", () => {
  it("LC-16: a ToolCall invocation yields a ToolMessage with the text as content and the details as artifact", async () => {
    const toolkit = newToolkit();
    const result = await toolkit.exec.invoke({ type: "tool_call", id: "call-echo", name: "exec", args: { command: "echo hello" } });
    expect(result).toBeInstanceOf(ToolMessage);
    const message = result as ToolMessage;
    expect(message.content).toBe("hello");
    expect(message.tool_call_id).toBe("call-echo");
    expect(message.name).toBe("exec");
    expect(message.artifact).toMatchObject({ status: "completed", exitCode: 0, exitSignal: null, exitReason: "exit", aggregated: "hello", cwd });
  });

  it("LC-16: a plain-arguments invocation returns the text only, for both tools and for failures", async () => {
    const toolkit = newToolkit();
    expect(await toolkit.exec.invoke({ command: "echo hello" })).toBe("hello");
    expect(await toolkit.exec.invoke({ command: "exit 127" })).toBe("Command not found");
    expect(await toolkit.process!.invoke({ action: "list" })).toBe("No running or recent sessions.");
    expect(await toolkit.process!.invoke({ action: "poll", sessionId: "nope-nope" })).toBe("No session found for nope-nope");
  });

  it("LC-17: during the foreground window a callback handler receives exec_update custom events with text and details", async () => {
    const toolkit = newToolkit();
    const events: Array<{ name: string; data: { text: string; details: Record<string, unknown> } }> = [];
    const handler = { handleCustomEvent: (name: string, data: unknown) => void events.push({ name, data: data as never }) };
    const result = await call(toolkit.exec, { command: "echo one; sleep 0.3; echo two" }, { callbacks: [handler] });
    expect(textOf(result)).toBe("one\ntwo");
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.name === "exec_update")).toBe(true);
    expect(events.map((event) => event.data.text)).toContain("one\n");
    expect(events[0]?.data.details).toMatchObject({ status: "running", cwd, tail: "one\n" });
    expect(Object.keys(events[0]!.data.details).sort()).toEqual(["cwd", "pid", "sessionId", "startedAt", "status", "tail"]);
    const count = events.length;
    await sleep(200);
    expect(events).toHaveLength(count);
  });

  it("LC-17: no exec_update is sent after a running result was returned", async () => {
    const toolkit = newToolkit();
    const events: string[] = [];
    const handler = { handleCustomEvent: (name: string) => void events.push(name) };
    const started = await call(toolkit.exec, { command: "sleep 0.1; echo later; sleep 30", background: true }, { callbacks: [handler] });
    const id = sessionIdOf(started);
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: id, timeout: 3000 }))).toBe("later\n\nProcess still running.");
    expect(events).toEqual([]);
  });

  it.each([
    ["a non-zero exit", "echo nope; exit 3", "success", "completed"],
    ["exit 127", "exit 127", "error", "failed"],
    ["exit 126", "exit 126", "error", "failed"],
    ["a signal", "kill -9 $$", "error", "failed"],
    ["success", "echo fine", "success", "completed"],
  ])("LC-20: %s gives a ToolMessage with status %s (details.status %s)", async (_label, command, status, detailsStatus) => {
    const result = await call(newToolkit().exec, { command });
    expect(result.status).toBe(status);
    expect(detailsOf(result)["status"]).toBe(detailsStatus);
  });

  it("LC-20: running results and successful process actions are success, returned process failures are errors", async () => {
    const toolkit = newToolkit();
    const started = await call(toolkit.exec, { command: "sleep 30", background: true });
    expect(started.status).toBe("success");
    expect(textOf(started)).toBe(RUNNING_TEXT(sessionIdOf(started), detailsOf(started)["pid"]));
    expect((await call(toolkit.process, { action: "list" })).status).toBe("success");
    expect((await call(toolkit.process, { action: "poll", sessionId: sessionIdOf(started) })).status).toBe("success");
    const missing = await call(toolkit.process, { action: "poll" });
    expect(missing.status).toBe("error");
    expect(textOf(missing)).toBe("sessionId is required for this action.");
    expect(detailsOf(missing)).toEqual({ status: "failed", error: "sessionId is required for this action." });
    const timedOut = await call(toolkit.exec, { command: "sleep 5", timeoutSeconds: 0.2 });
    expect(timedOut.status).toBe("error");
    expect(detailsOf(timedOut)).toMatchObject({ status: "failed", timedOut: true });
  });

  it.each([
    [{ command: "true", host: "x" }, 'Invalid exec host "x". Allowed values: auto, sandbox, gateway, node.'],
    [{ command: "" }, "Provide a command to start."],
    [{ command: "true", host: "node" }, 'exec host "node" is not available: no executor is registered for it.'],
    [{ command: "true", env: { PATH: "/x" } }, "Security Violation: Custom 'PATH' variable is forbidden during host execution."],
    [{ command: "true", env: { LD_PRELOAD: "/x.so" } }, "Security Violation: Environment variable 'LD_PRELOAD' is forbidden during host execution."],
  ])("LC-21: exec %j rejects with the engine's exact message", async (args, message) => {
    const toolkit = newToolkit();
    const rejection = toolkit.exec.invoke({ type: "tool_call", id: "e", name: "exec", args });
    await expect(rejection).rejects.toBeInstanceOf(Error);
    await expect(rejection).rejects.not.toBeInstanceOf(ToolInputParsingException);
    await expect(rejection).rejects.toThrow(message);
    await expect(rejection.catch((error: Error) => error.message)).resolves.toBe(message);
  });

  it("LC-21: calls after engine disposal reject with a message about the disposal", async () => {
    const toolkit = newToolkit();
    await toolkit.engine.dispose();
    await expect(toolkit.exec.invoke({ command: "echo late" })).rejects.toThrow(/disposed/);
    await expect(toolkit.process!.invoke({ action: "list" })).rejects.toThrow(/disposed/);
  });
});

describe("abort (LC-22)", () => {
  it("LC-22: aborting config.signal ends a foreground exec, rejects the invocation and discards the session", async () => {
    const toolkit = newToolkit();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const rejection = toolkit.exec.invoke({ command: "sleep 30", yieldMs: 60000 }, { signal: controller.signal });
    await expect(rejection).rejects.toMatchObject({ name: "AbortError", message: "Tool execution was aborted" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
    expect(textOf(await call(toolkit.process, { action: "list" }))).toBe("No running or recent sessions.");
  });

  it("LC-22: an already aborted signal rejects exec without leaving a process", async () => {
    const toolkit = newToolkit();
    await expect(toolkit.exec.invoke({ command: "sleep 30" }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
  });

  it("LC-22: aborting a waiting poll rejects it without consuming output and leaves the session running", async () => {
    const toolkit = newToolkit();
    const id = sessionIdOf(await call(toolkit.exec, { command: "echo ready; sleep 30", background: true }));
    await waitForOutput(toolkit, id, "ready");
    await expect(toolkit.process!.invoke({ action: "poll", sessionId: id }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: id }))).toBe("ready\n\nProcess still running.");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    await expect(toolkit.process!.invoke({ action: "poll", sessionId: id, timeout: 20000 }, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(toolkit.engine.liveSessionIds()).toEqual([id]);
  });

  it("LC-22: aborting after the running result was returned does not touch the backgrounded session", async () => {
    const toolkit = newToolkit();
    const background = new AbortController();
    const yielded = new AbortController();
    const first = sessionIdOf(await call(toolkit.exec, { command: "sleep 0.8; echo alive-1", background: true }, { signal: background.signal }));
    const second = sessionIdOf(await call(toolkit.exec, { command: "sleep 0.8; echo alive-2", yieldMs: 50 }, { signal: yielded.signal }));
    background.abort();
    yielded.abort();
    await sleep(100);
    expect(toolkit.engine.liveSessionIds().sort()).toEqual([first, second].sort());
    await waitUntilExited(toolkit.engine, first);
    await waitUntilExited(toolkit.engine, second);
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: first }))).toBe("alive-1\n\nProcess exited with code 0.");
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: second }))).toBe("alive-2\n\nProcess exited with code 0.");
  });
});

describe("exit events (LC-18, LC-19, LC-23)", () => {
  it("LC-18: drainEventMessages returns nothing when the queue is empty", () => {
    expect(newToolkit({ agentName: "builder" }).drainEventMessages()).toEqual([]);
  });

  it("LC-18: queued events become one HumanMessage of System lines in enqueue order, and the queue is emptied", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const first = sessionIdOf(await call(toolkit.exec, { command: "echo first", background: true }));
    await waitUntilExited(toolkit.engine, first);
    const second = sessionIdOf(await call(toolkit.exec, { command: "echo second; exit 4", background: true }));
    await waitUntilExited(toolkit.engine, second);
    await waitFor(() => toolkit.engine.peekSystemEvents("agent:builder").length === 2);
    const messages = toolkit.drainEventMessages();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toBeInstanceOf(HumanMessage);
    expect(messages[0]?.content).toBe(
      `System: Exec completed (${first.slice(0, 8)}, code 0) :: first\nSystem: Exec completed (${second.slice(0, 8)}, code 4) :: second`,
    );
    expect(toolkit.drainEventMessages()).toEqual([]);
    expect(toolkit.engine.peekSystemEvents("agent:builder")).toEqual([]);
  });

  it("LC-18: the threadId option drains the queue of thread:<id> and leaves the toolkit scope alone", async () => {
    const toolkit = newToolkit({ agentName: "builder", scopeFromThread: true });
    const inThread = sessionIdOf(await call(toolkit.exec, { command: "echo threaded", background: true }, thread("t9")));
    const inScope = sessionIdOf(await call(toolkit.exec, { command: "echo scoped", background: true }));
    await waitUntilExited(toolkit.engine, inThread);
    await waitUntilExited(toolkit.engine, inScope);
    await waitFor(() => toolkit.engine.peekSystemEvents("thread:t9").length === 1 && toolkit.engine.peekSystemEvents("agent:builder").length === 1);
    expect(toolkit.drainEventMessages({ threadId: "t9" }).map((m) => m.content)).toEqual([`System: Exec completed (${inThread.slice(0, 8)}, code 0) :: threaded`]);
    expect(toolkit.drainEventMessages({ threadId: "t9" })).toEqual([]);
    expect(toolkit.drainEventMessages().map((m) => m.content)).toEqual([`System: Exec completed (${inScope.slice(0, 8)}, code 0) :: scoped`]);
  });

  it("LC-19: with an empty queue the middleware changes nothing in what the model sees", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const model = fakeModel().respond(new AIMessage("hello"));
    const agent = createAgent({ model, tools: toolkit.getTools(), middleware: [toolkit.createMiddleware()] });
    const { messages } = await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(model.calls[0]?.messages.map((m) => m.content)).toEqual(["hi"]);
    expect(messages.map((m) => m.content)).toEqual(["hi", "hello"]);
  });

  it("LC-19: the middleware appends the queued exit event as the last message before the next model call", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "echo built ok", background: true } }])
      .respond(new AIMessage("started"))
      .respond(new AIMessage("noted"));
    const agent = createAgent({ model, tools: toolkit.getTools(), middleware: [toolkit.createMiddleware()] });
    const first = await agent.invoke({ messages: [new HumanMessage("build")] });
    const id = sessionIdOf(first.messages.find((m): m is ToolMessage => m instanceof ToolMessage)!);
    await waitFor(() => toolkit.engine.peekSystemEvents("agent:builder").length === 1);
    // The second model call happened before the exit: it saw no System line.
    expect(model.calls[1]?.messages.some((m) => String(m.content).startsWith("System:"))).toBe(false);
    const second = await agent.invoke({ messages: [...first.messages, new HumanMessage("news?")] });
    const seen = model.calls[2]?.messages ?? [];
    expect(seen.at(-2)?.content).toBe("news?");
    expect(seen.at(-1)).toBeInstanceOf(HumanMessage);
    expect(seen.at(-1)?.content).toBe(`System: Exec completed (${id.slice(0, 8)}, code 0) :: built ok`);
    expect(second.messages.at(-1)?.content).toBe("noted");
    expect(toolkit.engine.peekSystemEvents("agent:builder")).toEqual([]);
  });

  it("LC-19, LC-04: with scopeFromThread the middleware delivers the events of the run's thread only", async () => {
    const toolkit = newToolkit({ agentName: "builder", scopeFromThread: true });
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "echo thread job", background: true } }])
      .respond(new AIMessage("started"))
      .respond(new AIMessage("other thread"))
      .respond(new AIMessage("noted"));
    const agent = createAgent({ model, tools: toolkit.getTools(), middleware: [toolkit.createMiddleware()], checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [new HumanMessage("build")] }, thread("a"));
    await waitFor(() => toolkit.engine.peekSystemEvents("thread:a").length === 1);
    await agent.invoke({ messages: [new HumanMessage("hello from b")] }, thread("b"));
    expect(model.calls[2]?.messages.map((m) => m.content)).toEqual(["hello from b"]);
    await agent.invoke({ messages: [new HumanMessage("news?")] }, thread("a"));
    expect(String(model.calls[3]?.messages.at(-1)?.content)).toMatch(/^System: Exec completed \([a-z0-9-]{1,8}, code 0\) :: thread job$/);
  });

  it("LC-23: a finished background session writes nothing into the conversation until poll, log or a drain delivers it", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "sleep 0.1; echo secret-output", background: true } }])
      .respond(new AIMessage("started"));
    const agent = createAgent({ model, tools: toolkit.getTools(), checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [new HumanMessage("build")] }, thread("h"));
    const before = ((await agent.graph.getState({ configurable: { thread_id: "h" } })).values as { messages: BaseMessage[] }).messages;
    const id = sessionIdOf(before.find((m): m is ToolMessage => m instanceof ToolMessage)!);
    await waitUntilExited(toolkit.engine, id);
    await sleep(100);
    const after = ((await agent.graph.getState({ configurable: { thread_id: "h" } })).values as { messages: BaseMessage[] }).messages;
    expect(after.map((m) => m.content)).toEqual(before.map((m) => m.content));
    expect(after.some((m) => String(m.content).includes("secret-output"))).toBe(false);
    // The event waits in the queue; only a drain or a poll hands the output over.
    expect(toolkit.engine.peekSystemEvents("agent:builder")).toHaveLength(1);
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: id }))).toBe("secret-output\n\nProcess exited with code 0.");
  });
});

describe("concurrency (LC-24)", () => {
  it("LC-24: concurrent polls of the same session return distinct output, no line twice and none lost", async () => {
    const toolkit = newToolkit();
    const command = "i=1; while [ $i -le 150 ]; do echo line-$i; i=$((i+1)); sleep 0.002; done";
    const id = sessionIdOf(await call(toolkit.exec, { command, background: true }));
    const outputs: string[] = [];
    let finished = false;
    while (!finished) {
      const pair = await Promise.all([0, 1].map(() => call(toolkit.process, { action: "poll", sessionId: id, timeout: 200 })));
      for (const result of pair) {
        const text = textOf(result);
        if (detailsOf(result)["status"] !== "running") finished = true;
        const body = text.replace(/\n\n(Process still running\.|Process exited with code 0\.)$/, "");
        if (body !== "(no new output)") outputs.push(body);
      }
    }
    const lines = outputs.join("\n").split("\n");
    expect(lines).toHaveLength(150);
    expect(new Set(lines).size).toBe(150);
    expect([...lines].sort()).toEqual(Array.from({ length: 150 }, (_, i) => `line-${i + 1}`).sort());
  });

  it("LC-24: a waiting poll of one session does not hold up a poll of another session", async () => {
    const toolkit = newToolkit();
    const quiet = sessionIdOf(await call(toolkit.exec, { command: "sleep 30", background: true }));
    const chatty = sessionIdOf(await call(toolkit.exec, { command: "echo b-ready; sleep 30", background: true }));
    await waitForOutput(toolkit, chatty, "b-ready");
    const started = Date.now();
    const finishedAt: Record<string, number> = {};
    const timed = (id: string, args: Record<string, unknown>) =>
      call(toolkit.process, { action: "poll", sessionId: id, ...args }).then((result) => {
        finishedAt[id] = Date.now() - started;
        return result;
      });
    const [waiting, immediate] = await Promise.all([timed(quiet, { timeout: 1500 }), timed(chatty, {})]);
    expect(textOf(immediate)).toBe("b-ready\n\nProcess still running.");
    expect(textOf(waiting)).toBe("(no new output)\n\nProcess still running.");
    expect(finishedAt[quiet]).toBeGreaterThanOrEqual(1400);
    expect(finishedAt[chatty]).toBeLessThan(finishedAt[quiet]! - 500);
  });
});

describe("resetSessionRecords (REG-13)", () => {
  async function finishedAndRunning(toolkit: ExecToolkit, config?: Config): Promise<{ done: string; running: string }> {
    const done = sessionIdOf(await call(toolkit.exec, { command: "echo done", background: true }, config));
    const running = sessionIdOf(await call(toolkit.exec, { command: "sleep 30", background: true }, config));
    await waitUntilExited(toolkit.engine, done);
    return { done, running };
  }

  it("REG-13: a scope derived from the agent name loses its finished records and keeps running sessions", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const { done, running } = await finishedAndRunning(toolkit);
    expect(toolkit.resetSessionRecords()).toBe(1);
    const listed = textOf(await call(toolkit.process, { action: "list" }));
    expect(listed).toMatch(new RegExp(`^${running} running `));
    expect(listed).not.toContain(done);
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: done }))).toBe(`No session found for ${done}`);
    expect(toolkit.resetSessionRecords()).toBe(0);
  });

  it.each([
    ["an explicit scopeKey", { scopeKey: "shared" }],
    ["the default scope", {}],
  ])("REG-13: %s is shared, so resetting is a no-op returning 0", async (_label, options) => {
    const toolkit = newToolkit(options);
    const { done } = await finishedAndRunning(toolkit);
    expect(toolkit.resetSessionRecords()).toBe(0);
    expect(textOf(await call(toolkit.process, { action: "list" }))).toContain(done);
  });

  it("REG-13: the threadId option clears the finished records of thread:<id> only", async () => {
    const toolkit = newToolkit({ scopeKey: "shared", scopeFromThread: true });
    const { done, running } = await finishedAndRunning(toolkit, thread("t1"));
    const other = await finishedAndRunning(toolkit, thread("t2"));
    expect(toolkit.resetSessionRecords({ threadId: "t1" })).toBe(1);
    const t1 = textOf(await call(toolkit.process, { action: "list" }, thread("t1")));
    expect(t1).toContain(running);
    expect(t1).not.toContain(done);
    expect(textOf(await call(toolkit.process, { action: "list" }, thread("t2")))).toContain(other.done);
  });
});
