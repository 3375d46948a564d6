// The adapter for MCP servers (issue 22): the kit speaks MCP, as any MCP client does, to a server program that
// offers the tools exec and process (exec-process-mcp or another). Each scope of a scenario is one MCP session: a
// server started over stdio with the scenario's environment, working directory and config, and with
// --no-events-in-results, so that results carry only their own text.
//
// What the kit reads besides tool results comes from what an MCP client sees: queued exit events and wake requests
// from the exit-event logging notifications, live sessions from `process list`. The rest of the adapter contract
// has no MCP counterpart (fake executors, faults, the bridge, LangChain toolkits, clearFinished); the rules that
// need it are listed, with reasons, in conformance/mcp-exclusions.json.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type {
  AdapterInstance, CallOptions, CallOutcome, Capability, ConformanceAdapter, StartOptions, SystemEvent, ToolUpdate, WakeRequest,
} from "../adapter.js";
import { mcpAdapterName } from "./mcp-adapter-name.js";
import { McpProcessTransport } from "./mcp-process.js";
import { McpLeaseTransport } from "./mcp-reuse.js";
import { makeTempFolder, removeTempFolder } from "../temp-folders.js";
import { scheduleAbort } from "./scheduled-abort.js";
import { resolveProgram } from "./stdio-client.js";

export interface McpAdapterOptions {
  /** The shell command that starts the server over stdio; the adapter appends its flags. */
  command: string;
  callTimeoutMs: number;
  /** The directory the command runs in. @default process.cwd() */
  commandCwd?: string;
  /** @default ["pty"] */
  capabilities?: Capability[];
  /**
   * The kit's --reuse: `<command> --in-turn` serves the MCP sessions of this worker's scenarios one after another
   * (mcp-reuse.ts), instead of a server process per session. @default false
   */
  reuse?: boolean;
}

/** The logger of exit-event notifications, and the progress `_meta` key of an update's details (exec-process-mcp). */
const EXIT_EVENT_LOGGER = "exec-process";
const DETAILS_META_KEY = "exec-process-mcp/details";
/** OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS: how StartOptions.inputWaitIdleMs reaches a server (SET-15). */
const INPUT_WAIT_ENV = "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS";


export function createMcpAdapter(options: McpAdapterOptions): ConformanceAdapter {
  const command = resolveProgram(options.command, process.env["PATH"] ?? "");
  return {
    name: mcpAdapterName(options.command),
    capabilities: options.capabilities ?? ["pty"],
    start: async (start) => startInstance({ ...options, command }, start),
  };
}

/** One MCP session of the scenario: a scope, with the toolkit options its first call asked for. */
interface Session {
  client: Client;
  transport: McpProcessTransport | McpLeaseTransport;
  processTool: boolean;
}

async function startInstance(options: McpAdapterOptions, start: StartOptions): Promise<AdapterInstance> {
  const capabilities = options.capabilities ?? ["pty"];
  if (start.executors || start.faults) throw new Error("MCP servers take no fake executors or faults (capabilities executor, faults).");
  const configDir = makeTempFolder("exec-conformance-mcp-");
  const configFile = join(configDir, "config.json");
  writeFileSync(configFile, JSON.stringify(start.config));
  const env = { ...start.env, ...(start.inputWaitIdleMs !== undefined ? { [INPUT_WAIT_ENV]: String(start.inputWaitIdleMs) } : {}) };
  const sessions = new Map<string, Promise<Session>>();
  const queues = new Map<string, SystemEvent[]>();
  const wakes: WakeRequest[] = [];

  const open = async (scope: string, processTool: boolean, allowElevated: boolean): Promise<Session> => {
    const flags = ["--cwd", start.cwd, "--config", configFile, "--no-events-in-results",
      ...(processTool ? [] : ["--no-process-tool"]), ...(allowElevated ? ["--allow-elevated"] : []),
      // capability "watch" (issue 34): the server offers the watch tool; "dedupe": its engine's dedupe window
      ...(capabilities.includes("watch") ? ["--watch-tool"] : []),
      ...(start.dedupeWindowMs !== undefined ? ["--dedupe-window-ms", String(start.dedupeWindowMs)] : [])];
    const cwd = options.commandCwd ?? process.cwd();
    const transport = options.reuse ? new McpLeaseTransport(`${options.command} --in-turn`, cwd, flags, env)
      : new McpProcessTransport(`${options.command} ${flags.map(shellQuote).join(" ")}`, cwd, env);
    const client = new Client({ name: "exec-process-conformance", version: "1.0.0" });
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      if (params.logger !== EXIT_EVENT_LOGGER) return;
      const { sessionId, text, contextKey, createdAt } = params.data as Omit<SystemEvent, "scopeKey">;
      queues.set(scope, [...(queues.get(scope) ?? []), { scopeKey: scope, sessionId, text, contextKey, createdAt }]);
      wakes.push({ scopeKey: scope, sessionId, source: "exec-event", reason: "exec-event" });
    });
    try {
      await client.connect(transport, { timeout: options.callTimeoutMs });
    } catch (error) {
      await transport.close();
      throw new Error(`The MCP server did not start: ${(error as Error).message}\n${transport.stderr}`);
    }
    return { client, transport, processTool };
  };
  /** The scope's session; a scope that is called with other toolkit options gets another session (and engine). */
  const sessionFor = (call: CallOptions): Promise<Session> => {
    const processTool = call.processTool !== false;
    const allowElevated = call.allowElevated === true;
    const key = JSON.stringify([call.scope, processTool, allowElevated]);
    let session = sessions.get(key);
    if (!session) {
      session = open(call.scope, processTool, allowElevated);
      sessions.set(key, session);
    }
    return session;
  };

  // Most scenarios call the scope "main" with the default options: its server starts with the instance. Any other
  // scope's server starts in prepare(), before the kit times the scope's first call.
  try {
    await sessionFor({ scope: "main" });
  } catch (error) {
    removeTempFolder(configDir);
    throw error;
  }

  let closing: Promise<void> | undefined;
  const closeAll = (): Promise<void> => (closing ??= (async () => {
    const opened = await Promise.allSettled(sessions.values());
    await Promise.all(opened.map((result) => (result.status === "fulfilled" ? result.value.transport.close() : undefined)));
    sessions.clear();
    queues.clear(); // the sessions' queues went with them
    removeTempFolder(configDir);
  })());

  return {
    async prepare(call) {
      if (!closing) await sessionFor(call);
    },
    async call(tool, args, call) {
      if (closing) return { kind: "error", message: "The MCP sessions of this scenario have ended (disposed).", name: "Error" };
      const session = await sessionFor(call);
      return callTool(session.client, tool, args, call, options.callTimeoutMs);
    },
    drainEvents: async (scope) => {
      const queued = queues.get(scope) ?? [];
      queues.delete(scope);
      return queued;
    },
    peekEvents: async (scope) => [...(queues.get(scope) ?? [])],
    wakes: async () => [...wakes],
    clearFinished: async () => {
      throw new Error("An MCP client cannot clear finished sessions: the server offers no such request (see conformance/mcp-exclusions.json).");
    },
    async liveSessionIds() {
      const live: string[] = [];
      for (const session of await Promise.all(sessions.values())) {
        if (!session.processTool) continue; // synchronous exec leaves no background session
        const listed = (await session.client.callTool({ name: "process", arguments: { action: "list" } })) as CallToolResult;
        const entries = ((listed.structuredContent?.["sessions"] ?? []) as Array<{ sessionId: string; status: string }>);
        live.push(...entries.filter((entry) => entry.status === "running").map((entry) => entry.sessionId));
      }
      return live;
    },
    dispose: closeAll,
    close: closeAll,
  };
}

async function callTool(
  client: Client, tool: "exec" | "process" | "watch", args: Record<string, unknown>, call: CallOptions, timeout: number,
): Promise<CallOutcome> {
  const updates: ToolUpdate[] = [];
  const abort = scheduleAbort(call.abortAfterMs);
  try {
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
      signal: abort.signal, timeout,
      onprogress: (progress) => {
        const details = (progress as { _meta?: Record<string, unknown> })._meta?.[DETAILS_META_KEY];
        const update = { text: progress.message ?? "", details: (details ?? {}) as Record<string, unknown> };
        updates.push(update);
        call.onUpdate?.(update);
      },
    })) as CallToolResult;
    const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
    // A rejected call is a tool error without details; a failed command is one with its details.
    if (result.isError === true && result.structuredContent === undefined) return { kind: "error", message: text, name: "Error" };
    return { kind: "result", text, details: result.structuredContent ?? {}, isError: result.isError === true, updates };
  } catch (error) {
    const { message, name } = error as Error;
    return { kind: "error", message: String(message), name: String(name) };
  } finally {
    // MCP cancels only a request in flight (notifications/cancelled): an abort after the result cannot reach the
    // server, so over MCP the EXEC-41 scenarios show only that the session runs on, not that a late abort is ignored.
    abort.cancel();
  }
}

const shellQuote = (text: string): string => (/^[\w./=+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);
