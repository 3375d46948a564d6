// The reference implementation behind the stdio protocol (conformance/PROTOCOL.md): each request line is served by
// the reference adapter's own instance (reference.ts), concurrently, and answered when it is done.
import type { Readable, Writable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { BridgeProbe, ToolUpdate } from "../adapter.js";
import type { BeforeModelRequest, EventMessagesRequest, ToolInvocation, ToolkitSpec } from "../adapter.js";
import createReferenceAdapter, { startReference, type ReferenceInstance } from "./reference.js";
import { LineReader } from "./line-reader.js";
import {
  MAX_REQUEST_LINE_BYTES, METHODS, RequestError, encodeLine, leadingRequestId, overlongRequestLine, parseRequest,
  type CallParams, type Method, type ProtocolProgress, type ProtocolResponse, type StartParams,
} from "./stdio-protocol.js";

export interface StdioServerOptions {
  input: Readable;
  output: Writable;
  /** Where diagnostics go (never the protocol's stdout). */
  log: (line: string) => void;
  /** The implementation's environment: the scenario's complete controlled environment, set by the kit. */
  env: NodeJS.ProcessEnv;
  /**
   * false: never send `progress` messages, as a server of protocol version 1 (the kit then falls back to its
   * fixed waits; `stdio-server.mjs --no-progress` tests that fallback). @default true
   */
  progress?: boolean;
}

type Handler = (params: Record<string, unknown>, id: number) => Promise<object>;

/** Serves requests until the input ends; then the engine is disposed, so every session of the instance is gone. */
export function serveStdio(options: StdioServerOptions): Promise<void> {
  const { input, output, log } = options;
  const send = (message: ProtocolResponse | ProtocolProgress): void => void output.write(encodeLine(message));
  /** The instance, once `start` arrived; requests sent before it finished wait for it. */
  let instance: Promise<ReferenceInstance> | undefined;
  /** Set by `dispose`: a later `start` (reuse, PROTOCOL.md) begins the next scenario's instance. */
  let disposed = false;
  /** Abort controllers of the calls in flight, by request id. */
  const inFlight = new Map<number, AbortController>();
  /** Signals of finished invocations: a LangChain run's signal may still fire after its tool call (LC-22). */
  const finishedRuns = new Map<number, AbortController>();
  /** Calls whose abort arrived together with them (the same read), so they start already aborted. */
  const abortedOnArrival = new Set<number>();

  const started = (): Promise<ReferenceInstance> => {
    if (!instance) throw new Error('send "start" first');
    return instance;
  };
  const handlers: Record<Method, Handler> = {
    async start(params) {
      if (instance && !disposed) throw new Error('"start" was already sent; send "dispose" before the next "start"');
      const { env, ...start } = params as unknown as StartParams;
      disposed = false;
      finishedRuns.clear();
      instance = startReference({ ...start, env: env === undefined ? stringEnv(options.env) : scenarioEnv(env) });
      await instance;
      return { capabilities: createReferenceAdapter().capabilities, reusable: true };
    },
    async call(params, id) {
      const { tool, args, progress, ...call } = params as unknown as CallParams;
      if (tool !== "exec" && tool !== "process" && tool !== "watch") {
        throw new Error(`"tool" must be "exec", "process" or "watch" (got ${JSON.stringify(tool)})`);
      }
      if (typeof args !== "object" || args === null || Array.isArray(args)) throw new Error('"args" must be a JSON object');
      if (typeof call.scope !== "string") throw new Error('"scope" must be a string');
      const controller = new AbortController();
      if (abortedOnArrival.delete(id)) controller.abort(); // abortAfterMs 0: the signal is aborted when it starts
      inFlight.set(id, controller);
      // Version 2: each update goes out as it happens, and none after the answer (PROTOCOL.md, `call`).
      let answered = false;
      const streams = progress === true && options.progress !== false;
      const onUpdate = (update: ToolUpdate): void => void (answered || send({ id, progress: update }));
      try {
        const target = await started();
        return await target.call(tool, args as Record<string, unknown>, streams ? { ...call, onUpdate } : call, controller.signal);
      } finally {
        answered = true;
        inFlight.delete(id);
        finishedRuns.set(id, controller);
      }
    },
    async abort(params) {
      const callId = params["callId"] as number;
      inFlight.get(callId)?.abort();
      finishedRuns.get(callId)?.abort(); // a run's signal outlives its tool call: it still fires (EXEC-41, LC-22)
      return {};
    },
    drainEvents: async (params) => ({ events: await (await started()).drainEvents(scopeOf(params)) }),
    peekEvents: async (params) => ({ events: await (await started()).peekEvents(scopeOf(params)) }),
    wakes: async () => ({ wakes: await (await started()).wakes() }),
    clearFinished: async (params) => ({ count: await (await started()).clearFinished(scopeOf(params)) }),
    liveSessionIds: async () => ({ ids: await (await started()).liveSessionIds() }),
    executorRequests: async () => ({ requests: await (await started()).executorRequests!() }),
    bridgeProbe: async (params) => (await started()).bridgeProbe!(params as unknown as BridgeProbe),
    describeToolkit: async (params) => (await started()).describeToolkit(toolkitOf(params)),
    async invokeTool(params, id) {
      const controller = new AbortController();
      if (abortedOnArrival.delete(id)) controller.abort();
      inFlight.set(id, controller);
      try {
        const invocation = { ...(params as unknown as ToolInvocation), toolkit: toolkitOf(params) };
        return await (await started()).invokeTool(invocation, controller.signal);
      } finally {
        inFlight.delete(id);
        finishedRuns.set(id, controller);
      }
    },
    drainEventMessages: async (params) =>
      ({ messages: await (await started()).drainEventMessages({ ...(params as unknown as EventMessagesRequest), toolkit: toolkitOf(params) }) }),
    applyBeforeModel: async (params) =>
      ({ messages: await (await started()).applyBeforeModel({ ...(params as unknown as BeforeModelRequest), toolkit: toolkitOf(params) }) }),
    // The engine is disposed; the process keeps serving (calls now reject, KILL-15) until stdin ends.
    dispose: async () => {
      disposed = true;
      await (await started()).dispose();
      return {};
    },
  };

  const disposeInstance = async (): Promise<void> => {
    const ready = await instance?.catch(() => undefined); // a failed start has nothing to dispose
    await ready?.dispose();
  };

  return new Promise<void>((resolve) => {
    const serve = async (line: string): Promise<void> => {
      let id: number | undefined;
      try {
        const request = parseRequest(line);
        id = request.id;
        if (!(METHODS as readonly string[]).includes(request.method)) {
          throw new Error(`unknown method ${JSON.stringify(request.method)}; known: ${METHODS.join(", ")}`);
        }
        const result = await handlers[request.method as Method](request.params ?? {}, request.id);
        send({ id: request.id, result: result as Record<string, unknown> });
      } catch (error) {
        id ??= error instanceof RequestError ? error.id : undefined;
        const message = error instanceof Error ? error.message : String(error);
        if (id === undefined) log(`stdio-server: ignored a request line: ${message}: ${line.slice(0, 200)}`);
        else send({ id, error: { message } });
      }
    };
    // A line over the limit is answered with an error (to its id, when it starts with one) and never buffered.
    const refuseOverlong = (head: string, bytes: number): void => {
      const id = leadingRequestId(head);
      const message = overlongRequestLine(bytes);
      if (id === undefined) log(`stdio-server: ignored a request line: ${message}: ${head.slice(0, 200)}`);
      else send({ id, error: { message } });
    };
    type Received = { line: string; terminated: boolean } | { head: string; bytes: number; terminated: boolean };
    let received: Received[] = [];
    const reader = new LineReader({
      maxLineBytes: MAX_REQUEST_LINE_BYTES,
      onLine: (line, terminated) => void (line.trim() !== "" && received.push({ line, terminated })),
      onOverlong: (head, bytes, terminated) => void received.push({ head, bytes, terminated }),
    });
    // Requests start in the order they arrive, one per event-loop turn, so each one gets going (an exec reaches
    // the engine) before the next starts, as tool calls of successive steps do in-process. They then run
    // concurrently and are answered as they finish.
    let queue = Promise.resolve();
    /** A last line that ended with the input, without `\n`: served and answered before the disposal (§2). */
    let unterminated: Promise<void> | undefined;
    const startReceived = (): void => {
      const batch = received;
      received = [];
      const lines = batch.flatMap((item) => ("line" in item ? [item.line] : []));
      for (const callId of abortsIn(lines)) abortedOnArrival.add(callId);
      for (const item of batch) {
        queue = queue.then(async () => {
          await nextTurn();
          const served = "line" in item ? serve(item.line) : Promise.resolve(refuseOverlong(item.head, item.bytes));
          if (!item.terminated) unterminated = served;
        });
      }
    };
    input.on("data", (chunk: Buffer | string) => {
      reader.push(chunk);
      startReceived();
    });
    // The kit closes stdin to end the process; the engine is disposed first if no `dispose` came.
    input.once("end", () => {
      reader.end();
      startReceived();
      void queue.then(() => unterminated).then(() => disposeInstance())
        .catch((error) => log(`stdio-server: dispose at the end of input failed: ${String(error)}`))
        .finally(() => resolve());
    });
  });
}

/** Calls aborted by a later line of the same read: the kit writes `abort` right behind a call for abortAfterMs 0. */
function abortsIn(lines: string[]): number[] {
  const calls = new Set<number>();
  const aborted: number[] = [];
  for (const line of lines) {
    try {
      const { id, method, params } = parseRequest(line);
      if (method === "call" || method === "invokeTool") calls.add(id);
      if (method === "abort" && calls.has(params?.["callId"] as number)) aborted.push(params?.["callId"] as number);
    } catch {
      // served (and answered) as an invalid request later
    }
  }
  return aborted;
}

function toolkitOf(params: Record<string, unknown>): ToolkitSpec {
  const toolkit = params["toolkit"] ?? {};
  if (typeof toolkit !== "object" || toolkit === null || Array.isArray(toolkit)) {
    throw new Error(`"toolkit" must be a JSON object (got ${JSON.stringify(toolkit)})`);
  }
  return toolkit as ToolkitSpec;
}

function scopeOf(params: Record<string, unknown>): string {
  if (typeof params["scope"] !== "string") throw new Error(`"scope" must be a string (got ${JSON.stringify(params["scope"])})`);
  return params["scope"];
}

/** `env` of a reused implementation's `start`: the scenario's complete environment, every value a string. */
function scenarioEnv(env: unknown): Record<string, string> {
  const valid = typeof env === "object" && env !== null && !Array.isArray(env)
    && Object.values(env).every((value) => typeof value === "string");
  if (!valid) throw new Error(`"env" must be an object of strings (got ${JSON.stringify(env).slice(0, 100)})`);
  return env as Record<string, string>;
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
