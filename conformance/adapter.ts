// The adapter contract: the only way the conformance suite reaches an implementation (SPEC §0.8).
// Everything here is plain data so that the stdio protocol (conformance/PROTOCOL.md) can carry it unchanged.

/**
 * Capabilities an implementation may offer; scenarios tagged with a missing one are "not applicable". `watch`: the
 * opt-in `watch` tool (a `call` with tool "watch"); `dedupe`: retry dedupe with `StartOptions.dedupeWindowMs`.
 */
export type Capability = "pty" | "executor" | "bridge" | "faults" | "langchain" | "watch" | "dedupe";

/** The tools a `call` may name: `watch` only with the capability "watch". */
export type CallTool = "exec" | "process" | "watch";

export interface ConformanceAdapter {
  name: string;
  capabilities: Capability[];
  start(options: StartOptions): Promise<AdapterInstance>;
  /**
   * Optional: the worker (or the kit's own process, when it runs the scenarios) has run its last scenario; end what
   * the adapter kept from one scenario to the next (a connection, a container). Called once, after the last
   * instance's dispose.
   */
  close?(): Promise<void>;
}

/** A scripted host executor (EXEC-08/09) described as data; the adapter builds the real one. */
export interface FakeExecutorSpec {
  /** Output chunks the fake process emits, in order, each after `delayMs`. */
  output?: Array<{ stream: "stdout" | "stderr"; data: string; delayMs?: number }>;
  /** How the fake process ends; `delayMs` after the last output. Omit to keep it running until killed. */
  exit?: { code: number | null; signal: string | null; delayMs?: number };
  /** When false the process has no kill handle (KILL-05). Default true. */
  killable?: boolean;
  /** When true the process has a kill handle but never exits when signalled (KILL-11). Default false. */
  ignoreSignals?: boolean;
  /** When set, `spawn` rejects with this message (RES-24). */
  rejectWith?: string;
  /** The pid the fake process reports; omit for none. */
  pid?: number;
}

export interface StartOptions {
  /** The complete controlled environment of SPEC §0.8 plus the scenario's variables. */
  env: Record<string, string>;
  /** The documented nested config form. */
  config: { tools?: { exec?: Record<string, unknown> } };
  /** A fresh temporary directory: the engine's default working directory. */
  cwd: string;
  inputWaitIdleMs?: number;
  /** Fake host executors, only used by scenarios tagged @executor. */
  executors?: { sandbox?: FakeExecutorSpec; node?: FakeExecutorSpec };
  /** Faults to inject, only used by scenarios tagged @faults. */
  faults?: FaultSpec;
  /** Retry dedupe window in ms, only used by scenarios tagged @dedupe (capability "dedupe"). */
  dedupeWindowMs?: number;
}

/**
 * Capability "faults": parts of the implementation made to fail on purpose, so that scenarios can check the
 * documented fallback and error texts (PTY-05, PTY-06, INPUT-07, NOTIFY-11). Each field names one fault.
 */
export interface FaultSpec {
  /** A pseudo-terminal cannot be started (as when the PTY backend cannot be loaded): the error's message. */
  ptyUnavailable?: string;
  /** No plain child process can be started either: the error's message. */
  spawnUnavailable?: string;
  /** Every write to a session's input fails: the error's message. */
  stdinWriteError?: string;
  /** The host's event and wake callbacks throw (after the adapter has recorded the wake request). */
  throwingCallbacks?: boolean;
}

export interface CallOptions {
  scope: string;
  /** Default true; false = the toolkit has no process tool (synchronous mode, EXEC-42). */
  processTool?: boolean;
  allowElevated?: boolean;
  /**
   * Abort the call's signal this many ms after the call starts (0 = already aborted), also when the call has returned
   * by then: an agent run's signal outlives its tool calls (EXEC-41).
   */
  abortAfterMs?: number;
  /**
   * Called with each progress update (EXEC-39) as the implementation emits it, while the call runs; the outcome's
   * `updates` still lists them all. The one field that is not data: over stdio it becomes the call's `progress`
   * messages (PROTOCOL.md, `call`), over MCP `notifications/progress`. An implementation that never calls it is
   * still conformant: the kit then waits as long as it did before this existed (INTERPRETING.md, placeholders).
   */
  onUpdate?: (update: ToolUpdate) => void;
}

export interface ToolUpdate { text: string; details: Record<string, unknown> }

export type CallOutcome =
  | { kind: "result"; text: string; details: Record<string, unknown>; isError: boolean; updates: ToolUpdate[] }
  | { kind: "error"; message: string; name?: string };

export interface SystemEvent { scopeKey: string; sessionId: string; text: string; contextKey: string; createdAt: number }
export interface WakeRequest { scopeKey: string; sessionId: string; source: string; reason: string }

/** What the fake executor saw (EXEC-09/EXEC-10). */
export interface ExecutorRequest {
  host: "sandbox" | "node";
  command: string;
  cwd: string;
  env: Record<string, string>;
  pty: boolean;
  node?: string;
  elevated: boolean;
  scopeKey: string;
}

/** A probe of the child-process bridge helper (KILL-17 … KILL-20), run inside the implementation's host. */
export interface BridgeProbe {
  /** Signals passed as options.signals; omit for the default set. */
  signals?: string[];
  /** Steps applied in order after attaching. */
  steps: Array<
    | { signal: string }                       // the host process receives this signal
    | { childEvent: "exit" | "error" | "close" }
    | { detach: true }
  >;
  /** Make child.kill throw (KILL-19). */
  killThrows?: boolean;
}
export interface BridgeProbeResult {
  /** Signals passed to child.kill, in order. */
  forwarded: string[];
  /** Signals passed to options.onSignal, in order. */
  onSignal: string[];
  /** Whether the host process was still alive after all steps (KILL-20). */
  hostAlive: boolean;
  /** Number of bridge listeners still attached to the host process per signal after the steps. */
  listenersLeft: number;
}

export interface AdapterInstance {
  call(tool: CallTool, args: Record<string, unknown>, options: CallOptions): Promise<CallOutcome>;
  /**
   * Optional: makes a scope (with these call options) ready before its first call, so that what the timing rules
   * measure is the call, not the implementation's setup. The kit calls it before timing every call; an adapter that
   * starts something per scope (one MCP session each) starts it here.
   */
  prepare?(options: CallOptions): Promise<void>;
  drainEvents(scope: string): Promise<SystemEvent[]>;
  peekEvents(scope: string): Promise<SystemEvent[]>;
  /** Wake requests observed since start. */
  wakes(): Promise<WakeRequest[]>;
  clearFinished(scope: string): Promise<number>;
  liveSessionIds(): Promise<string[]>;
  /** Requests the fake executors received (capability "executor"). */
  executorRequests?(): Promise<ExecutorRequest[]>;
  /** Capability "bridge". */
  bridgeProbe?(probe: BridgeProbe): Promise<BridgeProbeResult>;
  /** Capability "langchain" (SPEC §13): what a model and a LangChain host see of the tools. */
  describeToolkit?(toolkit: ToolkitSpec): Promise<ToolkitDescription>;
  invokeTool?(invocation: ToolInvocation): Promise<InvocationOutcome>;
  drainEventMessages?(request: EventMessagesRequest): Promise<ChatMessage[]>;
  applyBeforeModel?(request: BeforeModelRequest): Promise<ChatMessage[]>;
  /** Ends every live process of this instance. */
  dispose(): Promise<void>;
  /** Optional: the scenario is over; release the instance at once (a stdio implementation's process ends). */
  close?(): Promise<void>;
}

// ---- Capability "langchain" (SPEC §13, LC-01 … LC-23) ----

/** A LangChain toolkit described as data: the options of the toolkit the adapter builds (LC-02 … LC-05). */
export interface ToolkitSpec {
  /** @default true; false = no process tool, exec runs synchronously (LC-02). */
  processTool?: boolean;
  scopeKey?: string;
  agentName?: string;
  /** Calls with a thread id use scope `thread:<id>` (LC-04). */
  scopeFromThread?: boolean;
  allowElevated?: boolean;
}

/** One tool as a model is shown it. */
export interface ToolDescription {
  name: string;
  description: string;
  /** The JSON schema of the tool's input, as handed to a model. */
  schema: Record<string, unknown>;
}

export interface ToolkitDescription {
  /** The toolkit's scope key (LC-03). */
  scopeKey: string;
  /** The toolkit's tools in the order it returns them (LC-01, LC-02). */
  tools: ToolDescription[];
}

export interface ToolInvocation {
  toolkit: ToolkitSpec;
  tool: "exec" | "process";
  args: Record<string, unknown>;
  /** true: invoked with a tool call `{type: "tool_call", id, name, args}`; false: with the plain arguments. */
  asToolCall: boolean;
  /** The run's `configurable.thread_id` (LC-04). */
  threadId?: string;
  /**
   * Abort the run's signal this many ms after the invocation starts (0 = already aborted, LC-22), also when the
   * invocation has already returned: a run's signal outlives its tool calls (EXEC-41).
   */
  abortAfterMs?: number;
}

/** A custom event dispatched through the run's callbacks during the invocation (LC-17). */
export interface CustomEvent { name: string; data: unknown }

export type InvocationOutcome =
  /** Invoked with a tool call: the ToolMessage (LC-16, LC-20). */
  | { kind: "message"; content: unknown; artifact: unknown; status: "success" | "error"; events: CustomEvent[] }
  /** Invoked with plain arguments: what `invoke` returned (LC-16). */
  | { kind: "return"; value: unknown; events: CustomEvent[] }
  /** The invocation rejected (LC-21, LC-22); `schemaError` = the framework's schema-validation error. */
  | { kind: "rejection"; message: string; name: string; schemaError: boolean; events: CustomEvent[] };

/** A chat message as data: `type` is LangChain's message type (`human`, `ai`, `tool`, `system`). */
export interface ChatMessage { type: string; content: unknown }

export interface EventMessagesRequest { toolkit: ToolkitSpec; threadId?: string }

/** The conversation before the middleware's before-model hook runs (LC-19). */
export interface BeforeModelRequest { toolkit: ToolkitSpec; messages: ChatMessage[] }

/** An adapter module's default export. */
export type AdapterFactory = () => ConformanceAdapter | Promise<ConformanceAdapter>;
