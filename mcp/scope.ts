// One MCP session: its own engine (so its sessions are invisible to every other MCP session, and ending it ends
// its processes), and an MCP Server that offers the tools as the LangChain tools do: the same JSON schemas,
// descriptions, texts and details, served from the tool specs and the engine without loading LangChain (issue 36).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import {
  createSessionEngine, ExecProcessError, type CallContext, type ExecConfig, type HostExecutor, type LocalSessionEngine, type SystemEvent,
} from "../src/engine/index.js";
import { runTool, systemEventLines, toolJsonSchema, toolSpecs, WATCH_TOOL_SPEC, type ToolSpec } from "../src/tool-spec/index.js";
import { DETAILS_OUTPUT_SCHEMA, fromRejection, fromToolResult, toolError } from "./call-result.js";
import { progressListener, type RequestExtra } from "./progress.js";
import { SERVER_NAME, serverVersion } from "./server-info.js";
import { createExecTask, ExecTaskStore, TASKS_CAPABILITY, type ToolRunner } from "./tasks.js";

export interface ScopeSettings {
  cwd: string;
  /** The environment the engine reads its settings from and commands inherit. */
  env: Record<string, string | undefined>;
  config: { tools?: { exec?: ExecConfig } };
  executors: { sandbox?: HostExecutor; node?: HostExecutor };
  processTool: boolean;
  allowElevated: boolean;
  eventsInResults: boolean;
  /** Offer the `watch` tool beside exec and process (issue 34, --watch-tool). @default false */
  watchTool?: boolean;
  /** The engine's retry dedupe window (issue 34, --dedupe-window-ms). @default 0 (off) */
  dedupeWindowMs?: number;
  /** Commands whose host is omitted, auto or gateway go to the sandbox executor. */
  sandboxed: boolean;
  /** The server's log (stderr): faults the model is not shown. */
  log(line: string): void;
}

export interface McpScope {
  readonly scopeKey: string;
  readonly server: Server;
  readonly engine: LocalSessionEngine;
  /** Ends every process of the scope (the engine's dispose), then the MCP connection. */
  close(): Promise<void>;
}

/** The logger name of exit-event notifications (notifications/message). */
export const EXIT_EVENT_LOGGER = "exec-process";

/** `transportSessionId`: the HTTP session, which a client's logging/setLevel is recorded under. */
export function openScope(settings: ScopeSettings, scopeKey: string, transportSessionId?: string): McpScope {
  let server: Server | undefined;
  const engine = createSessionEngine({
    cwd: settings.cwd, env: settings.env, config: settings.config, executors: settings.executors,
    ...(settings.dedupeWindowMs !== undefined ? { dedupeWindowMs: settings.dedupeWindowMs } : {}),
    onSystemEvent: (event) => void notifyExit(server, event, transportSessionId),
  });
  const offered: ToolSpec[] = [...toolSpecs(settings.processTool), ...(settings.processTool && settings.watchTool ? [WATCH_TOOL_SPEC] : [])];
  const tools = new Map<string, ToolSpec>(offered.map((spec) => [spec.name, spec]));
  const unknownTool = (name: string): string => new ExecProcessError({ code: "unknown-tool", tool: name, tools: [...tools.keys()] }).message;
  const call = (spec: ToolSpec, args: Record<string, unknown>, extra: RequestExtra | undefined): Promise<CallToolResult> => {
    const ctx: CallContext = { scopeKey, processToolAvailable: settings.processTool, allowElevated: settings.allowElevated };
    if (extra) ctx.signal = extra.signal; // LC-22
    const onUpdate = extra && spec.name === "exec" ? progressListener(extra) : undefined;
    if (onUpdate) ctx.onUpdate = onUpdate;
    return invoke(spec, engine, settings.sandboxed ? toSandbox(args) : args, ctx, settings.log);
  };
  const run: ToolRunner = (name, args) => call(tools.get(name)!, args, undefined);
  // exec tasks need the process tool: without it exec runs in the foreground only (EXEC-42)
  const taskStore = settings.processTool ? new ExecTaskStore(run) : undefined;
  server = new Server({ name: SERVER_NAME, version: serverVersion() }, {
    capabilities: { tools: {}, logging: {}, ...(taskStore ? { tasks: TASKS_CAPABILITY } : {}) },
    ...(taskStore ? { taskStore } : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((spec) => describeTool(spec, taskStore !== undefined && spec.name === "exec")),
  }));
  /** Calls in flight: a close answers them (a foreground command ends as failed) before the connection goes. */
  const inFlight = new Set<Promise<CallToolResult>>();
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {}, task } = request.params;
    const tool = tools.get(name);
    if (task !== undefined) {
      if (!tool) throw new McpError(ErrorCode.InvalidParams, unknownTool(name));
      if (!taskStore || name !== "exec" || !extra.taskStore) throw noTaskSupport(name);
      return createExecTask(args, { taskStore: extra.taskStore, taskRequestedTtl: extra.taskRequestedTtl }, { engine, scopeKey, store: taskStore, run });
    }
    const answer = (async () => {
      const result = tool ? await call(tool, args, extra) : toolError(unknownTool(name));
      return settings.eventsInResults ? withExitEvents(engine, scopeKey, result) : result;
    })();
    inFlight.add(answer);
    return answer.finally(() => inFlight.delete(answer));
  });
  return {
    scopeKey, server, engine,
    async close() {
      await engine.dispose();
      await Promise.allSettled([...inFlight]);
      await new Promise((resolve) => setImmediate(resolve)); // the answers are written before the connection closes
      await server?.close();
      taskStore?.cleanup();
    },
  };
}

function describeTool(spec: ToolSpec, taskSupport: boolean): Tool {
  return {
    ...(taskSupport ? { execution: { taskSupport: "optional" as const } } : {}),
    name: spec.name,
    description: spec.description,
    inputSchema: toolJsonSchema(spec) as Tool["inputSchema"], // what LangChain hands a model
    outputSchema: DETAILS_OUTPUT_SCHEMA as unknown as Tool["outputSchema"],
  };
}

async function invoke(
  spec: ToolSpec, engine: LocalSessionEngine, args: Record<string, unknown>, ctx: CallContext, log: (line: string) => void,
): Promise<CallToolResult> {
  try {
    return fromToolResult(await runTool(spec, engine, args, ctx));
  } catch (error) {
    return fromRejection(error, (fault) => log(`${spec.name} call failed: ${fault instanceof Error ? fault.stack ?? fault.message : String(fault)}`));
  }
}

/** A task-augmented call of a tool whose taskSupport is forbidden (spec 2025-11-25: -32601). */
function noTaskSupport(name: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Tool "${name}" does not run as a task (its execution.taskSupport is forbidden): call it without "task".`);
}

/** With --sandbox: a host that would run on this machine (omitted, "", auto, gateway) runs in the sandbox instead. */
function toSandbox(args: Record<string, unknown>): Record<string, unknown> {
  const { host } = args;
  const local = host === undefined || (typeof host === "string" && ["", "auto", "gateway"].includes(host.toLowerCase()));
  return local ? { ...args, host: "sandbox" } : args;
}

/** The scope's queued exit events, as the middleware's `System:` lines (LC-18), in front of the result, once. */
function withExitEvents(engine: LocalSessionEngine, scopeKey: string, result: CallToolResult): CallToolResult {
  const events = engine.drainSystemEvents(scopeKey);
  if (events.length === 0) return result;
  return { ...result, content: [{ type: "text", text: systemEventLines(events.map((event) => event.text)) }, ...result.content] };
}

/** Every exit event also goes out at once as a logging notification (the client may not call a tool for a while). */
async function notifyExit(server: Server | undefined, event: SystemEvent, sessionId: string | undefined): Promise<void> {
  const { sessionId: id, text, contextKey, createdAt } = event;
  try {
    await server?.sendLoggingMessage({ level: "info", logger: EXIT_EVENT_LOGGER, data: { sessionId: id, text, contextKey, createdAt } }, sessionId);
  } catch {
    // not connected (any more): the event still reaches the next tool result
  }
}
