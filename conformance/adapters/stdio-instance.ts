// One scenario's implementation behind the stdio protocol: every AdapterInstance method becomes one request, and
// each result field the steps rely on is checked, so a malformed answer fails with a message instead of confusing
// a step.
import type { AdapterInstance, Capability, ToolUpdate } from "../adapter.js";
import type { RequestOptions, StdioConnection } from "./stdio-connection.js";
import {
  CAPABILITIES, type CallParams, type Method, type ParamsOf, type ResultOf, type StartParams,
} from "./stdio-protocol.js";

/**
 * After `dispose`, the process stays up for requests that check the disposed engine (KILL-15). The adapter
 * contract has no separate "the scenario is over" call, so the kit ends the process once this long has passed
 * after a dispose with no request in between. Scenarios wait at most 300 ms after a dispose before the next
 * request, and the After hook keeps looking for survivors for 3000 ms.
 */
export const END_AFTER_DISPOSE_MS = 1000;

/** An AdapterInstance that can also end its process at once (`close`), as the After hook could after dispose. */
export interface StdioInstance extends AdapterInstance {
  close(): Promise<void>;
}

/** What an implementation's `start` answered. */
export interface Started {
  capabilities: Capability[];
  /** The implementation takes a new `start` after `dispose` (PROTOCOL.md, reuse). */
  reusable: boolean;
}

/** Sends `start`; on any failure the process group is killed before the error is passed on. */
export async function startImplementation(connection: StdioConnection, start: StartParams): Promise<Started> {
  try {
    const result = await connection.request("start", start);
    const offered = expectField(connection, "start", result, "capabilities", isStringArray);
    // unknown names are future ones
    return { capabilities: CAPABILITIES.filter((capability) => offered.includes(capability)), reusable: result.reusable === true };
  } catch (error) {
    connection.killGroup();
    throw error;
  }
}

/**
 * `release`, when given, replaces ending the process at the end of the scenario: the process is handed back for the
 * next scenario (reuse). Without it the process ends after dispose, as PROTOCOL.md's default says.
 */
export function createStdioInstance(
  connection: StdioConnection, offered: Capability[], release?: () => Promise<void>,
): StdioInstance {
  let disposed = false;
  let active = 0;
  let endTimer: NodeJS.Timeout | undefined;
  let ended: Promise<void> | undefined;
  const close = (reason = "at the end of the scenario"): Promise<void> =>
    (ended ??= release ? release() : connection.end(reason));
  const armEnd = (): void => {
    clearTimeout(endTimer);
    if (release || !disposed || active > 0 || ended) return;
    endTimer = setTimeout(() => void close(`${END_AFTER_DISPOSE_MS} ms after dispose without a further request`).catch(() => {
      // nobody is waiting any more; a process that did not exit is reported by the After hook's survivor check
    }), END_AFTER_DISPOSE_MS);
  };
  const request = async <M extends Method>(
    method: M, params: ParamsOf<M>, abortAfterMs?: number, options?: RequestOptions,
  ): Promise<ResultOf<M>> => {
    clearTimeout(endTimer);
    active += 1;
    try {
      return await connection.request(method, params, abortAfterMs, options);
    } finally {
      active -= 1;
      armEnd();
    }
  };
  const field = <T>(method: Method, result: object, name: string, valid: (value: unknown) => value is T): T =>
    expectField(connection, method, result, name, valid);

  const instance: StdioInstance = {
    async call(tool, args, call) {
      const params: CallParams = { tool, args, scope: call.scope };
      if (call.processTool !== undefined) params.processTool = call.processTool;
      if (call.allowElevated !== undefined) params.allowElevated = call.allowElevated;
      const streamed: ToolUpdate[] = [];
      const options: RequestOptions = { abortAfterAnswer: true }; // a run's signal outlives its tool calls (EXEC-41)
      if (call.onUpdate) {
        const { onUpdate } = call;
        params.progress = true;
        options.onProgress = (update) => {
          streamed.push(update);
          onUpdate(update);
        };
      }
      const outcome = await request("call", params, call.abortAfterMs, options);
      if (field("call", outcome, "kind", isOutcomeKind) === "result") {
        field("call", outcome, "text", isString);
        field("call", outcome, "details", isObject);
        field("call", outcome, "isError", isBoolean);
        const updates = field("call", outcome, "updates", Array.isArray);
        // An implementation that sends progress shows the kit one list of updates, not two.
        if (streamed.length > 0 && !sameUpdates(updates, streamed)) {
          throw connection.error("bad-result", `answered "call" with "updates" that differ from the ${streamed.length} progress messages it sent before: ${JSON.stringify(updates).slice(0, 300)}`);
        }
      } else {
        field("call", outcome, "message", isString);
      }
      return outcome;
    },
    drainEvents: async (scope) => field("drainEvents", await request("drainEvents", { scope }), "events", Array.isArray),
    peekEvents: async (scope) => field("peekEvents", await request("peekEvents", { scope }), "events", Array.isArray),
    wakes: async () => field("wakes", await request("wakes", {}), "wakes", Array.isArray),
    clearFinished: async (scope) => field("clearFinished", await request("clearFinished", { scope }), "count", isCount),
    liveSessionIds: async () => field("liveSessionIds", await request("liveSessionIds", {}), "ids", isStringArray),
    async dispose() {
      disposed = true;
      await request("dispose", {});
    },
    close: () => close(),
  };
  if (offered.includes("executor")) {
    instance.executorRequests = async () =>
      field("executorRequests", await request("executorRequests", {}), "requests", Array.isArray);
  }
  if (offered.includes("bridge")) {
    instance.bridgeProbe = async (probe) => {
      const result = await request("bridgeProbe", probe);
      field("bridgeProbe", result, "forwarded", isStringArray);
      field("bridgeProbe", result, "onSignal", isStringArray);
      field("bridgeProbe", result, "hostAlive", isBoolean);
      field("bridgeProbe", result, "listenersLeft", isInteger);
      return result;
    };
  }
  if (offered.includes("langchain")) addLangChain(instance, request, field);
  return instance;
}

type Request = <M extends Method>(
  method: M, params: ParamsOf<M>, abortAfterMs?: number, options?: RequestOptions,
) => Promise<ResultOf<M>>;
type Field = <T>(method: Method, result: object, name: string, valid: (value: unknown) => value is T) => T;

/** Capability "langchain": the four methods, each answer checked for the fields the steps read. */
function addLangChain(instance: StdioInstance, request: Request, field: Field): void {
  instance.describeToolkit = async (toolkit) => {
    const result = await request("describeToolkit", { toolkit });
    field("describeToolkit", result, "scopeKey", isString);
    field("describeToolkit", result, "tools", Array.isArray);
    return result;
  };
  instance.invokeTool = async ({ abortAfterMs, ...invocation }) => {
    const outcome = await request("invokeTool", invocation, abortAfterMs, { abortAfterAnswer: true });
    const kind = field("invokeTool", outcome, "kind", isInvocationKind);
    field("invokeTool", outcome, "events", Array.isArray);
    if (kind === "message") field("invokeTool", outcome, "status", isString);
    if (kind === "rejection") {
      field("invokeTool", outcome, "message", isString);
      field("invokeTool", outcome, "schemaError", isBoolean);
    }
    return outcome;
  };
  instance.drainEventMessages = async (params) =>
    field("drainEventMessages", await request("drainEventMessages", params), "messages", Array.isArray);
  instance.applyBeforeModel = async (params) =>
    field("applyBeforeModel", await request("applyBeforeModel", params), "messages", Array.isArray);
}

/** The same updates in the same order: texts equal, details equal as JSON. */
const sameUpdates = (answered: unknown[], streamed: ToolUpdate[]): boolean =>
  answered.length === streamed.length && answered.every((update, index) => isObject(update)
    && update["text"] === streamed[index]!.text && JSON.stringify(update["details"]) === JSON.stringify(streamed[index]!.details));

const isInvocationKind = (value: unknown): value is "message" | "return" | "rejection" =>
  value === "message" || value === "return" || value === "rejection";
const isString = (value: unknown): value is string => typeof value === "string";
const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isOutcomeKind = (value: unknown): value is "result" | "error" => value === "result" || value === "error";
const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** Returns a field of a result the kit relies on, or fails with a message that shows the result. */
function expectField<T>(
  connection: StdioConnection, method: Method, result: object, name: string, valid: (value: unknown) => value is T,
): T {
  const value = (result as Record<string, unknown>)[name];
  if (valid(value)) return value;
  throw connection.error("bad-result", `answered "${method}" with a result whose "${name}" is missing or of the wrong type: ${JSON.stringify(result).slice(0, 300)}`);
}
