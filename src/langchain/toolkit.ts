// ExecToolkit: exec + process bound to one engine and scope (LC-01 … LC-05, LC-18, LC-19, REG-13).
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { BaseToolkit, type ToolRunnableConfig } from "@langchain/core/tools";
import type { SessionEngine } from "../engine/index.js";
import { systemEventLines } from "../engine/messages.js";
import { createExitEventMiddleware, createExitEventNode } from "./exit-events.js";
import { ThreadRuns } from "./thread-runs.js";
import { threadIdOf } from "./tool-output.js";
import { ExecTool, ProcessTool, WatchTool, type ToolBinding } from "./tools.js";
import {
  startWakeOnExit, type WakeableRunnable, type WakeOnExitHandle, type WakeOnExitOptions, type WakeRunConfig,
} from "./wake-on-exit.js";

export interface ExecToolkitOptions<Engine extends SessionEngine = SessionEngine> {
  /** The in-process engine (createSessionEngine), or one served by a session host (connectSessionHost). */
  engine: Engine;
  /** An explicit, shared scope (LC-03). */
  scopeKey?: string;
  /** Scope `agent:<agentName>` when no scopeKey is given (LC-03). */
  agentName?: string;
  /** @default true. false: only exec, which then runs synchronously (LC-02). */
  processTool?: boolean;
  /** @default false. Enables `elevated: true` (LC-05). */
  allowElevated?: boolean;
  /** @default false. Calls with `configurable.thread_id` use scope `thread:<id>` (LC-04). */
  scopeFromThread?: boolean;
  /** @default false. Adds the `watch` tool (issue 34) after exec and process; needs the process tool and `engine.watch`. */
  watchTool?: boolean;
}

export const DEFAULT_SCOPE = "default";

export class ExecToolkit<Engine extends SessionEngine = SessionEngine> extends BaseToolkit {
  readonly engine: Engine;
  readonly scopeKey: string;
  readonly exec: ExecTool;
  readonly process: ProcessTool | undefined;
  /** The `watch` tool, with `watchTool: true` (issue 34). */
  readonly watch: WatchTool | undefined;
  /** `[exec, process]`, or `[exec]` without the process tool (LC-02), then `watch` when asked for; the same tools, typed. */
  tools: Array<ExecTool | ProcessTool | WatchTool>;
  /** The scope was derived (agent name), so resetting it cannot touch a shared scope (REG-13). */
  readonly #derivedScope: boolean;
  /** Calls with `configurable.thread_id` use scope `thread:<id>` (LC-04). */
  readonly scopeFromThread: boolean;
  /** Runs in flight per thread, reported by the middleware and by wakeOnExit. */
  readonly threadRuns = new ThreadRuns();

  constructor(options: ExecToolkitOptions<Engine>) {
    super();
    this.engine = options.engine;
    this.#derivedScope = options.scopeKey === undefined && options.agentName !== undefined;
    this.scopeKey = options.scopeKey ?? (options.agentName !== undefined ? `agent:${options.agentName}` : DEFAULT_SCOPE);
    this.scopeFromThread = options.scopeFromThread === true;
    const processToolAvailable = options.processTool !== false;
    const binding: ToolBinding = {
      engine: this.engine,
      processToolAvailable,
      allowElevated: options.allowElevated === true,
      scopeFor: (config: ToolRunnableConfig | undefined) => this.#scopeFor(threadIdOf(config)),
    };
    this.exec = new ExecTool(binding);
    this.process = processToolAvailable ? new ProcessTool(binding) : undefined;
    this.tools = this.process ? [this.exec, this.process] : [this.exec];
    this.watch = this.process && options.watchTool === true ? new WatchTool(binding) : undefined;
    if (this.watch) this.tools.push(this.watch);
  }

  override getTools(): Array<ExecTool | ProcessTool | WatchTool> {
    return [...this.tools];
  }

  #scopeFor(threadId: string | undefined): string {
    return this.scopeFromThread && threadId !== undefined ? `thread:${threadId}` : this.scopeKey;
  }

  /** The scope a call on this thread uses (LC-04). */
  scopeForThread(threadId: string): string {
    return this.#scopeFor(threadId);
  }

  /**
   * LC-18: the scope's queued exit events as one HumanMessage, or none. Its content is the `System: …` lines the model
   * reads, whose text names a session by its first 8 characters (NOTIFY-07); `additional_kwargs.systemEvents` holds
   * the events themselves (SystemEvent), with their full session ids, for the host.
   */
  async drainEventMessages(options: { threadId?: string } = {}): Promise<BaseMessage[]> {
    const scope = options.threadId !== undefined ? `thread:${options.threadId}` : this.scopeKey;
    const events = await this.engine.drainSystemEvents(scope);
    if (events.length === 0) return [];
    const content = systemEventLines(events.map((event) => event.text));
    return [new HumanMessage({ content, additional_kwargs: { systemEvents: events.map((event) => ({ ...event })) } })];
  }

  /** LC-19: a createAgent middleware that hands queued exit events to the model before each call. */
  createMiddleware() {
    return createExitEventMiddleware(this);
  }

  /** The same for a hand-built LangGraph graph: a node to run before the model node. */
  createExitEventNode() {
    return createExitEventNode(this);
  }

  /**
   * Runs `runnable` (an agent with this toolkit's middleware, or a graph with its exit-event node, and a
   * checkpointer) on `config.configurable.thread_id` with no new message whenever exit events are queued for the
   * thread's scope, one run per burst and never while another run of the thread is in flight. Returns a handle:
   * calling it (or `stop()`) stops the loop, and nothing starts after it or after `engine.dispose()`; `nextRun()`
   * resolves when the next wake run has finished (and keeps the host alive until then). `options.onResult` receives
   * what each run produced.
   */
  wakeOnExit<Result>(
    runnable: WakeableRunnable<Result>, config: WakeRunConfig, options: WakeOnExitOptions<NoInfer<Result>> = {},
  ): WakeOnExitHandle<Result> {
    return startWakeOnExit(this, runnable, config, options);
  }

  /** REG-13: clears finished records of a derived scope; shared scopes are left alone (returns 0). */
  async resetSessionRecords(options: { threadId?: string } = {}): Promise<number> {
    if (options.threadId !== undefined) return this.engine.clearFinishedSessions(`thread:${options.threadId}`);
    return this.#derivedScope ? this.engine.clearFinishedSessions(this.scopeKey) : 0;
  }
}
