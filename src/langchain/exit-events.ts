// Delivers queued exit events to an agent before its next model call (LC-18, LC-19), for createAgent agents
// (a middleware) and for hand-built LangGraph graphs (a node function).
import type { BaseMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { createMiddleware } from "./agent-middleware.js";

/** What the delivery helpers need from a toolkit. */
export interface ExitEventSource {
  drainEventMessages(options?: { threadId?: string }): BaseMessage[];
  readonly scopeFromThread: boolean;
}

/** The thread id of the run in progress, when the toolkit scopes by thread (LC-04). */
function currentThreadId(source: ExitEventSource): string | undefined {
  if (!source.scopeFromThread) return undefined;
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as { configurable?: { thread_id?: unknown } } | undefined;
  const threadId = config?.configurable?.thread_id;
  return typeof threadId === "string" || typeof threadId === "number" ? String(threadId) : undefined;
}

function drainForCurrentRun(source: ExitEventSource): BaseMessage[] {
  const threadId = currentThreadId(source);
  return source.drainEventMessages(threadId !== undefined ? { threadId } : {});
}

/** LC-19: a createAgent middleware whose before-model hook appends the drained events, or changes nothing. */
export function createExitEventMiddleware(source: ExitEventSource) {
  return createMiddleware({
    name: "ExecExitEvents",
    beforeModel: () => {
      const messages = drainForCurrentRun(source);
      return messages.length > 0 ? { messages } : undefined;
    },
  });
}

/**
 * A LangGraph node for graphs built by hand: place it before the model node; it returns `{ messages }` with the
 * drained events (for a messages reducer), or `{}` when the queue is empty.
 */
export function createExitEventNode(source: ExitEventSource): () => { messages?: BaseMessage[] } {
  return () => {
    const messages = drainForCurrentRun(source);
    return messages.length > 0 ? { messages } : {};
  };
}
