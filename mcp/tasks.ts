// exec as an MCP task (spec 2025-11-25, experimental in the SDK; issue 22): a task-augmented tools/call of exec
// starts the command as a background session, and the task follows that session. It ends with the session's
// terminal `process poll` (completed or failed as the exit event says), and tasks/cancel is `process kill`.
import { InMemoryTaskStore, type CreateTaskResult } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { RequestTaskStore } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import type { ListDetails, SessionEngine } from "../src/engine/index.js";

/** What a server with exec tasks declares: tasks/list, tasks/cancel and task-augmented tools/call. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * How often a task looks at its session when no exit event woke it: a session may end without one (a silent
 * success, notifyOnExit false, a kill). Also the pollInterval the task suggests to the client.
 */
export const TASK_CHECK_INTERVAL_MS = 1_000;

/** Calls exec or process as a plain tools/call would: the same texts and details. */
export type ToolRunner = (name: "exec" | "process", args: Record<string, unknown>) => Promise<CallToolResult>;

/** The SDK's in-memory store, where cancelling a task also kills its session. */
export class ExecTaskStore extends InMemoryTaskStore {
  readonly #sessionOf = new Map<string, string>();
  readonly #run: ToolRunner;

  constructor(run: ToolRunner) {
    super();
    this.#run = run;
  }

  link(taskId: string, sessionId: string): void {
    this.#sessionOf.set(taskId, sessionId);
  }

  override async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string, sessionId?: string): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    const session = this.#sessionOf.get(taskId);
    if (status === "cancelled" && session !== undefined) await this.#run("process", { action: "kill", sessionId: session });
  }
}

export interface ExecTaskContext {
  engine: SessionEngine;
  scopeKey: string;
  store: ExecTaskStore;
  run: ToolRunner;
}

/** Starts `args` as a background exec and answers with its task (failed at once when the command did not start). */
export async function createExecTask(
  args: Record<string, unknown>, extra: { taskStore: RequestTaskStore; taskRequestedTtl?: number | undefined }, context: ExecTaskContext,
): Promise<CreateTaskResult> {
  const { taskStore } = extra;
  const task = await taskStore.createTask({ ttl: extra.taskRequestedTtl ?? null, pollInterval: TASK_CHECK_INTERVAL_MS });
  const started = await context.run("exec", { ...args, background: true });
  const sessionId = started.structuredContent?.["sessionId"];
  if (started.structuredContent?.["status"] === "running" && typeof sessionId === "string") {
    context.store.link(task.taskId, sessionId);
    void followSession(task.taskId, sessionId, taskStore, context);
  } else {
    await taskStore.storeTaskResult(task.taskId, outcomeOf(started), started);
  }
  return { task: await taskStore.getTask(task.taskId) };
}

/** Waits for the session to end, then stores its terminal poll as the task's result (unless the task was cancelled). */
async function followSession(taskId: string, sessionId: string, taskStore: RequestTaskStore, context: ExecTaskContext): Promise<void> {
  const ended = await whenFinished(context.engine, context.scopeKey, sessionId);
  if (ended === undefined) return; // the scope was closed
  const result = await context.run("process", { action: "poll", sessionId });
  try {
    const task = await taskStore.getTask(taskId);
    if (task.status === "working") await taskStore.storeTaskResult(taskId, ended.outcome ?? outcomeOf(result), result);
  } catch {
    // the task expired (ttl) or was cancelled meanwhile: nobody asks for its result
  }
}

/** A result's own status, for a command that did not start and a session no longer listed. */
function outcomeOf(result: CallToolResult): "completed" | "failed" {
  return result.structuredContent?.["status"] === "completed" ? "completed" : "failed";
}

/**
 * Resolves once the session no longer runs, with its outcome as `process list` (and the exit event) gives it: a
 * terminal poll says completed for every exit (POLL), so a failed command would read as completed. Resolves
 * undefined when the engine is disposed first; `outcome` is absent when the session is no longer listed.
 */
function whenFinished(engine: SessionEngine, scopeKey: string, sessionId: string): Promise<{ outcome?: "completed" | "failed" } | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (finished: { outcome?: "completed" | "failed" } | undefined): void => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      stopListening();
      resolve(finished);
    };
    const check = async (): Promise<void> => {
      try {
        const { details } = await engine.process({ action: "list" }, { scopeKey });
        const entry = (details as ListDetails).sessions.find((session) => session.sessionId === sessionId);
        if (entry === undefined) settle({});
        else if (entry.status !== "running") settle({ outcome: entry.status });
      } catch {
        settle(undefined); // the engine is disposed
      }
    };
    const timer = setInterval(() => void check(), TASK_CHECK_INTERVAL_MS);
    const stopListening = engine.addWakeListener({
      onWake: (wake) => {
        if (wake.sessionId === sessionId) void check();
      },
      onDispose: () => settle(undefined),
    });
    void check(); // it may have ended before the listener was added
  });
}
