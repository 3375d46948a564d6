// One MCP session: its own engine (so its sessions are invisible to every other MCP session, and ending it ends
// its processes), an ExecToolkit over it, and an MCP Server that offers the toolkit's tools unchanged: the same
// JSON schemas, descriptions, texts and details as the LangChain tools.
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { StructuredTool } from "@langchain/core/tools";
import type { ToolMessage } from "@langchain/core/messages";
import {
  createSessionEngine, ExecProcessError, ExecToolkit, type ExecConfig, type HostExecutor, type SessionEngine, type SystemEvent,
} from "../src/index.js";
import { DETAILS_OUTPUT_SCHEMA, fromRejection, fromToolMessage, toolError } from "./call-result.js";
import { progressCallbacks, type RequestExtra } from "./progress.js";
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
  /** Commands whose host is omitted, auto or gateway go to the sandbox executor. */
  sandboxed: boolean;
  /** The server's log (stderr): faults the model is not shown. */
  log(line: string): void;
}

export interface McpScope {
  readonly scopeKey: string;
  readonly server: Server;
  readonly engine: SessionEngine;
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
    onSystemEvent: (event) => void notifyExit(server, event, transportSessionId),
  });
  const toolkit = new ExecToolkit({ engine, scopeKey, processTool: settings.processTool, allowElevated: settings.allowElevated });
  const tools = new Map(toolkit.getTools().map((tool) => [tool.name, tool]));
  const unknownTool = (name: string): string => new ExecProcessError({ code: "unknown-tool", tool: name, tools: [...tools.keys()] }).message;
  let calls = 0;
  const run: ToolRunner = (name, args) => invoke(
    tools.get(name)!, settings.sandboxed ? toSandbox(args) : args, `mcp-call-${(calls += 1)}`, undefined, settings.log,
  );
  // exec tasks need the process tool: without it exec runs in the foreground only (EXEC-42)
  const taskStore = settings.processTool ? new ExecTaskStore(run) : undefined;
  server = new Server({ name: SERVER_NAME, version: serverVersion() }, {
    capabilities: { tools: {}, logging: {}, ...(taskStore ? { tasks: TASKS_CAPABILITY } : {}) },
    ...(taskStore ? { taskStore } : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((tool) => describeTool(tool, taskStore !== undefined && tool.name === "exec")),
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
    const call = (async () => {
      const result = tool
        ? await invoke(tool, settings.sandboxed ? toSandbox(args) : args, `mcp-call-${(calls += 1)}`, extra, settings.log)
        : toolError(unknownTool(name));
      return settings.eventsInResults ? withExitEvents(toolkit, result) : result;
    })();
    inFlight.add(call);
    return call.finally(() => inFlight.delete(call));
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

function describeTool(tool: StructuredTool, taskSupport: boolean): Tool {
  return {
    ...(taskSupport ? { execution: { taskSupport: "optional" as const } } : {}),
    name: tool.name,
    description: tool.description,
    inputSchema: toJsonSchema(tool.schema) as Tool["inputSchema"], // what LangChain hands a model
    outputSchema: DETAILS_OUTPUT_SCHEMA as unknown as Tool["outputSchema"],
  };
}

async function invoke(
  tool: StructuredTool, args: Record<string, unknown>, id: string, extra: RequestExtra | undefined, log: (line: string) => void,
): Promise<CallToolResult> {
  try {
    const message = (await tool.invoke(
      { type: "tool_call", id, name: tool.name, args },
      extra ? { signal: extra.signal, callbacks: progressCallbacks(extra) } : {},
    )) as ToolMessage;
    return fromToolMessage(message);
  } catch (error) {
    return fromRejection(error, (fault) => log(`${tool.name} call failed: ${fault instanceof Error ? fault.stack ?? fault.message : String(fault)}`));
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
function withExitEvents(toolkit: ExecToolkit, result: CallToolResult): CallToolResult {
  const [message] = toolkit.drainEventMessages();
  if (!message) return result;
  return { ...result, content: [{ type: "text", text: String(message.content) }, ...result.content] };
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
