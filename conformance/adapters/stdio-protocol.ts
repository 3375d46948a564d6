// The messages of the stdio protocol (conformance/PROTOCOL.md, conformance/protocol.schema.json), shared by the
// kit's client (stdio-client.ts) and the reference server (stdio-server.ts).
import type {
  BridgeProbe, BridgeProbeResult, CallOptions, CallOutcome, Capability, ExecutorRequest, StartOptions, SystemEvent,
  ToolUpdate, WakeRequest,
} from "../adapter.js";
import type {
  BeforeModelRequest, ChatMessage, EventMessagesRequest, InvocationOutcome, ToolInvocation, ToolkitDescription,
  ToolkitSpec,
} from "../adapter.js";

/** `start`: everything of StartOptions except `env`, which is the implementation's own process environment. */
export type StartParams = Omit<StartOptions, "env"> & {
  /** Only to an implementation that answered `reusable: true` (PROTOCOL.md, reuse): the scenario's environment. */
  env?: Record<string, string>;
};

/**
 * `call`: the tool, its arguments and the call's options; `abortAfterMs` becomes a separate `abort` request, and
 * `onUpdate` the `progress: true` that asks for `progress` messages (protocol version 2).
 */
export interface CallParams extends Omit<CallOptions, "abortAfterMs" | "onUpdate"> {
  /** "watch" only with the capability "watch". */
  tool: "exec" | "process" | "watch";
  args: Record<string, unknown>;
  /** Send each progress update as a `progress` message while the call runs (PROTOCOL.md, `call`). */
  progress?: boolean;
}

/** The protocol's version, stated in PROTOCOL.md: 2 added the `progress` messages of a call. */
export const PROTOCOL_VERSION = 2;

/** `invokeTool`: the invocation; `abortAfterMs` becomes a separate `abort` request, as for `call`. */
export type InvokeToolParams = Omit<ToolInvocation, "abortAfterMs">;

type NoParams = Record<string, never>;
type Empty = Record<string, never>;

/** Params and result of every method, by method name. */
export interface ProtocolMethods {
  start: { params: StartParams; result: { capabilities: Capability[]; reusable?: boolean } };
  call: { params: CallParams; result: CallOutcome };
  abort: { params: { callId: number }; result: Empty };
  drainEvents: { params: { scope: string }; result: { events: SystemEvent[] } };
  peekEvents: { params: { scope: string }; result: { events: SystemEvent[] } };
  wakes: { params: NoParams; result: { wakes: WakeRequest[] } };
  clearFinished: { params: { scope: string }; result: { count: number } };
  liveSessionIds: { params: NoParams; result: { ids: string[] } };
  executorRequests: { params: NoParams; result: { requests: ExecutorRequest[] } };
  bridgeProbe: { params: BridgeProbe; result: BridgeProbeResult };
  dispose: { params: NoParams; result: Empty };
  // capability "langchain"
  describeToolkit: { params: { toolkit: ToolkitSpec }; result: ToolkitDescription };
  invokeTool: { params: InvokeToolParams; result: InvocationOutcome };
  drainEventMessages: { params: EventMessagesRequest; result: { messages: ChatMessage[] } };
  applyBeforeModel: { params: BeforeModelRequest; result: { messages: ChatMessage[] } };
}

export type Method = keyof ProtocolMethods;
export type ParamsOf<M extends Method> = ProtocolMethods[M]["params"];
export type ResultOf<M extends Method> = ProtocolMethods[M]["result"];

export const METHODS: readonly Method[] = [
  "start", "call", "abort", "drainEvents", "peekEvents", "wakes", "clearFinished", "liveSessionIds",
  "executorRequests", "bridgeProbe", "dispose",
  "describeToolkit", "invokeTool", "drainEventMessages", "applyBeforeModel",
];

export const CAPABILITIES: readonly Capability[] = ["pty", "executor", "bridge", "faults", "langchain", "watch", "dedupe"];

export interface ProtocolRequest { id: number; method: string; params?: Record<string, unknown> }

export type ProtocolResponse =
  | { id: number; result: Record<string, unknown> }
  | { id: number; error: { message: string } };

/** A progress update of the call `id` that is still running (version 2): any number of them precede its answer. */
export interface ProtocolProgress { id: number; progress: ToolUpdate }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isRequestId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Parses one line of an implementation's stdout; throws an Error saying what is wrong with it. */
export function parseResponse(line: string): ProtocolResponse | ProtocolProgress {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    throw new Error("it is not JSON");
  }
  if (!isObject(message)) throw new Error("it is not a JSON object");
  if (!isRequestId(message["id"])) throw new Error(`its "id" is not a request id (got ${JSON.stringify(message["id"])})`);
  const hasResult = "result" in message;
  const hasError = "error" in message;
  const hasProgress = "progress" in message;
  if (Number(hasResult) + Number(hasError) + Number(hasProgress) !== 1) {
    throw new Error('it must have exactly one of "result", "error" and "progress"');
  }
  if (hasProgress) {
    const progress = message["progress"];
    if (!isObject(progress) || typeof progress["text"] !== "string" || !isObject(progress["details"])) {
      throw new Error('its "progress" is not an object with a string "text" and an object "details"');
    }
    return { id: message["id"], progress: { text: progress["text"], details: progress["details"] } };
  }
  if (hasResult) {
    if (!isObject(message["result"])) throw new Error('its "result" is not a JSON object');
    return { id: message["id"], result: message["result"] };
  }
  const error = message["error"];
  if (!isObject(error) || typeof error["message"] !== "string") {
    throw new Error('its "error" is not an object with a string "message"');
  }
  return { id: message["id"], error: { message: error["message"] } };
}

/** Parses one line of the kit's requests; throws an Error saying what is wrong, with the id when it has one. */
export function parseRequest(line: string): ProtocolRequest {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    throw new RequestError(undefined, "the line is not JSON");
  }
  if (!isObject(message)) throw new RequestError(undefined, "the line is not a JSON object");
  const id = isRequestId(message["id"]) ? message["id"] : undefined;
  if (id === undefined) throw new RequestError(undefined, `"id" must be a whole number >= 0 (got ${JSON.stringify(message["id"])})`);
  if (typeof message["method"] !== "string") throw new RequestError(id, '"method" must be a string');
  const params = message["params"] ?? {};
  if (!isObject(params)) throw new RequestError(id, '"params" must be a JSON object when present');
  return { id, method: message["method"], params };
}

/** A request that cannot be served; `id` is known when the line had a usable one. */
export class RequestError extends Error {
  override name = "RequestError";
  constructor(readonly id: number | undefined, message: string) {
    super(message);
  }
}

/**
 * The longest request line the reference server reads (PROTOCOL.md §2), in bytes without its `\n`: 16 MiB, far
 * above any request of the suite. A longer line is refused with an error answer instead of being buffered.
 */
export const MAX_REQUEST_LINE_BYTES = 16 * 1024 * 1024;

/** The error answer to a request line over MAX_REQUEST_LINE_BYTES. */
export const overlongRequestLine = (bytes: number): string =>
  `the request line is ${bytes} bytes, over the protocol's limit of ${MAX_REQUEST_LINE_BYTES} bytes (PROTOCOL.md §2): it was not read or served`;

/** The id of a request line that starts with `{"id": <n>`, as every line the kit writes does; else undefined. */
export function leadingRequestId(line: string): number | undefined {
  const id = Number(/^\s*\{\s*"id"\s*:\s*(\d+)\s*[,}]/.exec(line)?.[1]);
  return isRequestId(id) ? id : undefined;
}

/** One protocol line: JSON.stringify never emits a raw newline, so each message stays on its line. */
export const encodeLine = (message: ProtocolRequest | ProtocolResponse | ProtocolProgress): string => `${JSON.stringify(message)}\n`;
