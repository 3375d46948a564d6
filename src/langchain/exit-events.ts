// Delivers queued exit events to an agent before its next model call (LC-18, LC-19), for createAgent agents
// (a middleware) and for hand-built LangGraph graphs (a node function).
import type { BaseMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { createMiddleware } from "./agent-middleware.js";
import type { ThreadRuns } from "./thread-runs.js";

/** What the delivery helpers need from a toolkit. */
export interface ExitEventSource {
  drainEventMessages(options?: { threadId?: string }): Promise<BaseMessage[]>;
  readonly scopeFromThread: boolean;
  /** Where the middleware reports the runs it sees, so wakeOnExit never overlaps them. */
  readonly threadRuns?: ThreadRuns;
}

/** What the agent hooks read from their runtime argument. */
interface RunInfo { configurable?: { thread_id?: unknown }; signal?: AbortSignal }

function threadOfRun(runtime: RunInfo): string | undefined {
  const threadId = runtime.configurable?.thread_id;
  return typeof threadId === "string" || typeof threadId === "number" ? String(threadId) : undefined;
}

/** The thread id of the run in progress, when the toolkit scopes by thread (LC-04). */
function currentThreadId(source: ExitEventSource): string | undefined {
  if (!source.scopeFromThread) return undefined;
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as { configurable?: { thread_id?: unknown } } | undefined;
  const threadId = config?.configurable?.thread_id;
  return typeof threadId === "string" || typeof threadId === "number" ? String(threadId) : undefined;
}

function drainForCurrentRun(source: ExitEventSource): Promise<BaseMessage[]> {
  const threadId = currentThreadId(source);
  return source.drainEventMessages(threadId !== undefined ? { threadId } : {});
}

/**
 * LC-19: a createAgent middleware whose before-model hook appends the drained events, or changes nothing.
 * Its agent hooks mark the run's thread busy from start to end (or abort, or a failed model call), for wakeOnExit.
 */
export function createExitEventMiddleware(source: ExitEventSource) {
  const runs = source.threadRuns;
  const endRun = (runtime: RunInfo): void => {
    const threadId = threadOfRun(runtime);
    if (threadId !== undefined) runs?.end(threadId);
  };
  return createMiddleware({
    name: "ExecExitEvents",
    beforeAgent: (_state, runtime) => {
      const threadId = threadOfRun(runtime);
      if (threadId !== undefined) runs?.begin(threadId, runtime.signal);
      return undefined;
    },
    beforeModel: async () => {
      const messages = await drainForCurrentRun(source);
      return messages.length > 0 ? { messages } : undefined;
    },
    wrapModelCall: async (request, handler) => {
      try {
        return await handler(request);
      } catch (error) {
        endRun(request.runtime); // the run fails with its model call
        throw error;
      }
    },
    afterAgent: (_state, runtime) => {
      endRun(runtime);
      return undefined;
    },
  });
}

/**
 * A LangGraph node for graphs built by hand: place it before the model node; it returns `{ messages }` with the
 * drained events (for a messages reducer), or `{}` when the queue is empty.
 */
export function createExitEventNode(source: ExitEventSource): () => Promise<{ messages?: BaseMessage[] }> {
  return async () => {
    const messages = await drainForCurrentRun(source);
    return messages.length > 0 ? { messages } : {};
  };
}
