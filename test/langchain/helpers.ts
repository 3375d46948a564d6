// Shared setup of the LangChain tests: a fresh cwd per test, engines that are always disposed, ToolCall invocation
// (so results carry their details, LC-16) and small waits. Each test file calls setupToolkitTests() once.
import { ToolMessage } from "@langchain/core/messages";
import type { StructuredTool } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { z } from "zod";
import {
  createSessionEngine, ExecToolkit, type CallContext, type ExecParams, type LocalSessionEngine, type SessionEngineOptions,
} from "../../src/index.js";

/** The current test's default working directory (realpath), made by setupToolkitTests. */
export let cwd: string;
const engines: LocalSessionEngine[] = [];

/** Registers the per-test cwd and the disposal of every engine the test created. */
export function setupToolkitTests(): void {
  beforeEach(() => {
    cwd = realpathSync(mkdtempSync(join(tmpdir(), "toolkit-test-")));
  });
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.dispose()));
    rmSync(cwd, { recursive: true, force: true });
  });
}

export function newEngine(options: SessionEngineOptions = {}): LocalSessionEngine {
  const engine = createSessionEngine({ cwd, env: { ...process.env, SHELL: "/bin/sh" }, ...options });
  engines.push(engine);
  return engine;
}

export function newToolkit(
  options: Omit<ConstructorParameters<typeof ExecToolkit>[0], "engine"> = {}, engine = newEngine(),
): ExecToolkit<LocalSessionEngine> {
  return new ExecToolkit({ engine, ...options });
}

export type Config = Parameters<StructuredTool["invoke"]>[1];
let callCount = 0;

/** Invokes a tool with a ToolCall, so the result is a ToolMessage carrying the details as artifact (LC-16). */
export async function call(tool: StructuredTool | undefined, args: Record<string, unknown>, config?: Config): Promise<ToolMessage> {
  if (!tool) throw new Error("the toolkit has no such tool");
  callCount += 1;
  const result: unknown = await tool.invoke({ type: "tool_call", id: `call-${callCount}`, name: tool.name, args }, config);
  if (!(result instanceof ToolMessage)) throw new Error(`expected a ToolMessage, got ${String(result)}`);
  return result;
}

export const textOf = (message: ToolMessage): string => String(message.content);
export const detailsOf = (message: ToolMessage): Record<string, unknown> => message.artifact as Record<string, unknown>;
export const sessionIdOf = (message: ToolMessage): string => String(detailsOf(message)["sessionId"]);
export const thread = (id: string): Config => ({ configurable: { thread_id: id } });

export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const waitUntilExited = (engine: LocalSessionEngine, id: string) => waitFor(() => !engine.liveSessionIds().includes(id));
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until a session has printed `text`, reading with log, which drains nothing (LOG-01). */
export async function waitForOutput(toolkit: ExecToolkit, id: string, text: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!textOf(await call(toolkit.process, { action: "log", sessionId: id })).includes(text)) {
    if (Date.now() > deadline) throw new Error(`session ${id} did not print ${text}`);
    await sleep(20);
  }
}

/** The JSON schema a model is shown for a tool. */
export function jsonSchemaOf(tool: StructuredTool | undefined): { required?: string[]; properties: Record<string, Record<string, unknown>> } {
  return toJsonSchema(tool!.schema as z.ZodType) as never;
}

/** An engine wrapper that records what the tools hand to the engine. */
export function recordingEngine(engine: LocalSessionEngine) {
  const execCalls: Array<{ params: ExecParams; ctx: CallContext }> = [];
  const wrapper: LocalSessionEngine = {
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

export const RUNNING_TEXT = (id: string, pid: unknown) =>
  `Command still running (session ${id}, pid ${String(pid)}). Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up.`;
