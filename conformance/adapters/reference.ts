// The reference adapter: drives the real LangChain tools of this package with tool calls, so the kit checks
// exactly what an agent sees (text = ToolMessage content, details = artifact, isError = status "error").
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import type { ToolMessage } from "@langchain/core/messages";
import type {
  AdapterInstance, BridgeProbe, BridgeProbeResult, CallOptions, CallOutcome, CallTool, Capability, ConformanceAdapter, ExecutorRequest,
  StartOptions, ToolUpdate, WakeRequest,
} from "../adapter.js";
import { ExecToolkit } from "../../src/langchain/toolkit.js";
import {
  attachChildProcessBridge, createSessionEngine, type HostExecutor, type SessionEngine,
} from "../../src/engine/index.js";
import { createFakeExecutor } from "./fake-executor.js";
import { createLangChainSurface, type LangChainSurface } from "./reference-langchain.js";
import { REFERENCE_ADAPTER_NAME } from "./reference-adapter-name.js";
import { spawnFaults } from "./spawn-faults.js";
import { scheduleAbort } from "./scheduled-abort.js";

export default function createReferenceAdapter(): ConformanceAdapter {
  const capabilities: Capability[] = [...(ptyAvailable() ? ["pty" as const] : []), "executor", "bridge", "faults", "langchain", "watch", "dedupe"];
  return { name: REFERENCE_ADAPTER_NAME, capabilities, start: startReference };
}

let ptyLoads: boolean | undefined;

/** node-pty is optional: without it (or without its native build) PTY scenarios are not applicable here. */
function ptyAvailable(): boolean {
  if (ptyLoads === undefined) {
    try {
      createRequire(import.meta.url)("node-pty");
      ptyLoads = true;
    } catch {
      ptyLoads = false;
    }
  }
  return ptyLoads;
}

/** An instance whose calls also take an outside abort signal (the stdio server's `abort`, PROTOCOL.md). */
export interface ReferenceInstance extends Omit<AdapterInstance, keyof LangChainSurface>, LangChainSurface {
  call(tool: CallTool, args: Record<string, unknown>, options: CallOptions, signal?: AbortSignal): Promise<CallOutcome>;
}

/** `hostExecutors`: real executors to register (the through-host adapter); a scenario's fake executor replaces one. */
export async function startReference(
  options: StartOptions, hostExecutors: { sandbox?: HostExecutor; node?: HostExecutor } = {},
): Promise<ReferenceInstance> {
  const wakes: WakeRequest[] = [];
  const requests: ExecutorRequest[] = [];
  const executors: { sandbox?: HostExecutor; node?: HostExecutor } = { ...hostExecutors };
  if (options.executors?.sandbox) executors.sandbox = createFakeExecutor("sandbox", options.executors.sandbox, requests);
  if (options.executors?.node) executors.node = createFakeExecutor("node", options.executors.node, requests);
  const engine = createSessionEngine({
    cwd: options.cwd,
    env: options.env,
    config: options.config,
    executors,
    onWake: (request) => {
      wakes.push(request);
      if (options.faults?.throwingCallbacks) throw new Error("fault: the wake callback throws");
    },
    ...(options.faults?.throwingCallbacks ? { onSystemEvent: () => { throw new Error("fault: the event callback throws"); } } : {}),
    ...(options.faults ? { faults: spawnFaults(options.faults) } : {}),
    ...(options.inputWaitIdleMs !== undefined ? { inputWaitIdleMs: options.inputWaitIdleMs } : {}),
    ...(options.dedupeWindowMs !== undefined ? { dedupeWindowMs: options.dedupeWindowMs } : {}),
  });
  return referenceInstance(engine, { wakes, requests });
}

/**
 * The instance over an engine made elsewhere (the session host's, adapters/session-host.ts): its calls go through
 * the LangChain tools as startReference's do; `record` is where the wake requests and executor requests are kept.
 */
export function referenceInstance(
  engine: SessionEngine, record: { wakes: WakeRequest[]; requests: ExecutorRequest[] },
): ReferenceInstance {
  const { wakes, requests } = record;
  const toolkits = new Map<string, ExecToolkit>();
  const toolkitFor = (call: CallOptions): ExecToolkit => {
    const key = JSON.stringify([call.scope, call.processTool !== false, call.allowElevated === true]);
    let toolkit = toolkits.get(key);
    if (!toolkit) {
      toolkit = new ExecToolkit({
        engine, scopeKey: call.scope, processTool: call.processTool !== false, allowElevated: call.allowElevated === true,
        watchTool: true,
      });
      toolkits.set(key, toolkit);
    }
    return toolkit;
  };
  let callCount = 0;
  return {
    async call(tool, args, call, signal) {
      const toolkit = toolkitFor(call);
      const target = tool === "exec" ? toolkit.exec : tool === "watch" ? toolkit.watch : toolkit.process;
      if (!target) return { kind: "error", message: `The toolkit has no ${tool === "watch" ? "watch" : "process"} tool.` };
      callCount += 1;
      return invokeTool(target, args, `call-${callCount}`, callSignal(call, signal), call.onUpdate);
    },
    drainEvents: async (scope) => engine.drainSystemEvents(scope),
    peekEvents: async (scope) => engine.peekSystemEvents(scope),
    wakes: async () => [...wakes],
    clearFinished: async (scope) => engine.clearFinishedSessions(scope),
    liveSessionIds: async () => engine.liveSessionIds(),
    executorRequests: async () => [...requests],
    bridgeProbe: async (probe) => runBridgeProbe(probe),
    ...createLangChainSurface(engine),
    dispose: () => engine.dispose(),
  };
}

type Invocable = { invoke(input: unknown, config?: Record<string, unknown>): Promise<unknown> };

/**
 * The signal of a scenario's call: it fires abortAfterMs after the call starts, also when the call has returned by
 * then, as an agent run's signal outlives its tool calls (EXEC-41: an abort after the running result must have no
 * effect, which only a signal that still fires can show). `outside`: the stdio server's `abort` (PROTOCOL.md).
 */
export function callSignal(call: CallOptions, outside?: AbortSignal): AbortSignal {
  const { signal } = scheduleAbort(call.abortAfterMs);
  return outside ? AbortSignal.any([signal, outside]) : signal;
}

async function invokeTool(
  tool: Invocable, args: Record<string, unknown>, id: string, signal: AbortSignal, onUpdate?: (update: ToolUpdate) => void,
): Promise<CallOutcome> {
  const updates: ToolUpdate[] = [];
  const callbacks = [{
    handleCustomEvent(name: string, data: ToolUpdate) {
      if (name !== "exec_update") return;
      const update = { text: data.text, details: data.details };
      updates.push(update);
      onUpdate?.(update);
    },
  }];
  try {
    const message = (await tool.invoke(
      { type: "tool_call", id, name: (tool as { name?: string }).name, args },
      { signal, callbacks },
    )) as ToolMessage;
    const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    return { kind: "result", text, details: (message.artifact ?? {}) as Record<string, unknown>, isError: message.status === "error", updates };
  } catch (error) {
    const { message, name } = error as Error;
    return { kind: "error", message: String(message), name };
  }
}

/** Runs the bridge helper against a fake child inside this (the host) process. */
async function runBridgeProbe(probe: BridgeProbe): Promise<BridgeProbeResult> {
  const forwarded: string[] = [];
  const onSignal: string[] = [];
  const child = Object.assign(new EventEmitter(), {
    kill(signal: string) {
      forwarded.push(signal);
      if (probe.killThrows) throw new Error("kill failed");
      return true;
    },
  });
  const signals = (probe.signals ?? ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]) as NodeJS.Signals[];
  const baseline = new Map(signals.map((s) => [s, process.listenerCount(s)]));
  const bridge = attachChildProcessBridge(child as never, {
    ...(probe.signals ? { signals: probe.signals as NodeJS.Signals[] } : {}),
    onSignal: (signal) => void onSignal.push(signal),
  });
  for (const step of probe.steps) {
    if ("signal" in step) await deliverSignal(step.signal as NodeJS.Signals, baseline);
    else if ("childEvent" in step) child.emit(step.childEvent, step.childEvent === "error" ? new Error("child error") : 0);
    else bridge.detach();
  }
  const listenersLeft = signals.reduce((sum, s) => sum + process.listenerCount(s) - (baseline.get(s) ?? 0), 0);
  bridge.detach();
  return { forwarded, onSignal, hostAlive: true, listenersLeft };
}

/**
 * A real signal when a bridge listener is attached for it, so KILL-20 is tested for real (the host survives).
 * Without one nothing is sent: the bridge cannot forward it, and a real signal would end the test runner itself.
 */
async function deliverSignal(signal: NodeJS.Signals, baseline: Map<NodeJS.Signals, number>): Promise<void> {
  const bridged = process.listenerCount(signal) > (baseline.get(signal) ?? process.listenerCount(signal));
  if (!bridged) return;
  await new Promise<void>((resolve) => {
    process.once(signal, () => setImmediate(resolve));
    process.kill(process.pid, signal);
  });
}
