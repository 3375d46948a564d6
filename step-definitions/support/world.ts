// The typed World of the conformance suite: one per scenario, holding the adapter instance and what the steps saw.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { World, setWorldConstructor, type IWorldOptions } from "@cucumber/cucumber";
import type {
  AdapterInstance, CallOptions, CallOutcome, CallTool, Capability, ConformanceAdapter, FakeExecutorSpec, FaultSpec, StartOptions,
  SystemEvent,
} from "../../conformance/adapter.js";
import { NEWEST_EDITION, findEdition, renameKeys, type Edition } from "../../conformance/catalog/editions.js";
import type { PidMark } from "./survivors.js";

export interface SuiteParameters {
  /** Upper-bound tolerance T of SPEC §0.8 item 5, in ms. */
  toleranceMs: number;
  /** `--edition`: the id of the documentation edition whose names the kit speaks (default: the newest). */
  edition?: string;
}

export interface TimedOutcome { outcome: CallOutcome; startedAt: number; durationMs: number; tool: CallTool }

export class ConformanceWorld extends World<SuiteParameters> {
  adapter!: ConformanceAdapter;
  instance: AdapterInstance | undefined;
  private starting: Promise<AdapterInstance> | undefined;
  readonly tempDirs: string[] = [];
  cwd = "";
  marker = "";
  /** Where the pids stood when the scenario began: the survivor check reads only younger processes. */
  pidMark: PidMark | undefined;
  env: Record<string, string> = {};
  config: { tools: { exec: Record<string, unknown> } } = { tools: { exec: {} } };
  inputWaitIdleMs: number | undefined;
  /** The retry dedupe window of the instance (capability "dedupe"). */
  dedupeWindowMs: number | undefined;
  executors: { sandbox?: FakeExecutorSpec; node?: FakeExecutorSpec } = {};
  faults: FaultSpec = {};
  scope = "main";
  processTool = true;
  allowElevated = false;
  nextAbortAfterMs: number | undefined;
  pty = false;
  /** Placeholder values: `<id>`, and names given by "the session id is remembered as". */
  readonly vars = new Map<string, string>();
  last: TimedOutcome | undefined;
  /** Set when a step has looked at the last rejected call; After fails the scenario otherwise. */
  errorChecked = true;
  /** Rejections that no step checked before a later call replaced them; After fails the scenario on any. */
  readonly uncheckedRejections: string[] = [];
  /** Scopes that calls and event reads of this scenario used: After checks that peek and drain agree in each. */
  readonly scopesUsed = new Set<string>(["main"]);
  /** A step disposed the instance: its queues are no longer compared at the end. */
  disposedInScenario = false;
  readonly started = new Map<string, Promise<TimedOutcome>>();
  events: SystemEvent[] = [];
  /** When the scenario started (ms since the epoch): REG-01 reads only files changed since. */
  readonly createdAt = Date.now();
  /** Where the kit marks the progress updates it saw, once a command waits for one (`<wait for update N>`). */
  private updatesDir: string | undefined;
  /** Progress updates seen while calls ran, over the whole scenario. */
  private updatesSeen = 0;

  constructor(options: IWorldOptions<SuiteParameters>) {
    super(options);
  }

  /** The documentation edition of the run (`--edition`): the kit speaks its names to the implementation. */
  get edition(): Edition {
    return findEdition(this.parameters.edition ?? NEWEST_EDITION.id);
  }

  get toleranceMs(): number {
    return this.parameters.toleranceMs ?? 500;
  }

  /** Starts the implementation on first use, after the Given steps have shaped env and config. */
  async ensureStarted(): Promise<AdapterInstance> {
    // One start even when several calls begin at once: they share the pending start.
    this.starting ??= this.start();
    return this.starting;
  }

  private async start(): Promise<AdapterInstance> {
    const { names } = this.edition;
    const config = { ...this.config, tools: { ...this.config.tools, exec: renameKeys(this.config.tools.exec, names.config) } };
    const options: StartOptions = { env: renameKeys(this.env, names.env), config, cwd: this.cwd };
    if (this.inputWaitIdleMs !== undefined) options.inputWaitIdleMs = this.inputWaitIdleMs;
    if (this.executors.node || this.executors.sandbox) options.executors = this.executors;
    if (Object.keys(this.faults).length > 0) options.faults = this.faults;
    if (this.dedupeWindowMs !== undefined) options.dedupeWindowMs = this.dedupeWindowMs;
    this.instance = await this.adapter.start(options);
    return this.instance;
  }

  hasCapability(capability: Capability): boolean {
    return this.adapter.capabilities.includes(capability);
  }

  callOptions(scope = this.scope): CallOptions {
    this.scopesUsed.add(scope);
    const options: CallOptions = { scope, processTool: this.processTool, allowElevated: this.allowElevated };
    const marks = this.updatesDir;
    if (marks !== undefined) {
      options.onUpdate = () => {
        this.updatesSeen += 1;
        writeFileSync(join(marks, String(this.updatesSeen)), "");
      };
    }
    if (this.nextAbortAfterMs !== undefined) {
      options.abortAfterMs = this.nextAbortAfterMs;
      this.nextAbortAfterMs = undefined;
    }
    return options;
  }

  /** Calls a tool and records the outcome as the last one; a rejected call must then be checked by a step. */
  async startCall(tool: CallTool, args: Record<string, unknown>, scope?: string): Promise<TimedOutcome> {
    const instance = await this.ensureStarted();
    const options = this.callOptions(scope);
    const spoken = tool === "exec" ? renameKeys(args, this.edition.names.args) : args;
    await instance.prepare?.(options);
    const startedAt = Date.now();
    const outcome = await instance.call(tool, spoken, options);
    return { outcome, startedAt, durationMs: Date.now() - startedAt, tool };
  }

  record(timed: TimedOutcome): void {
    if (!this.errorChecked && this.last?.outcome.kind === "error") this.uncheckedRejections.push(this.last.outcome.message);
    this.last = timed;
    this.errorChecked = timed.outcome.kind !== "error";
    const { outcome } = timed;
    if (timed.tool === "exec" && outcome.kind === "result") {
      const id = outcome.details["sessionId"];
      if (typeof id === "string") this.vars.set("id", id);
    }
  }

  async call(tool: CallTool, args: Record<string, unknown>, scope?: string): Promise<TimedOutcome> {
    const timed = await this.startCall(tool, args, scope);
    this.record(timed);
    return timed;
  }

  lastOutcome(): CallOutcome {
    if (!this.last) throw new Error("No tool call has been made yet in this scenario.");
    return this.last.outcome;
  }

  lastResult(): Extract<CallOutcome, { kind: "result" }> {
    const outcome = this.lastOutcome();
    if (outcome.kind !== "result") {
      this.errorChecked = true;
      throw new Error(`Expected a result, but the call was rejected: ${outcome.message}`);
    }
    return outcome;
  }

  /**
   * Reads a scope's queued events the way an agent does, with `drainEvents`, after a `peekEvents` of the same
   * queue: the two must agree, or an implementation could show a checker one queue and the agent another.
   */
  async drainEventsAsAgent(scope: string): Promise<SystemEvent[]> {
    this.scopesUsed.add(scope);
    const instance = await this.ensureStarted();
    const peeked = await instance.peekEvents(scope);
    const drained = await instance.drainEvents(scope);
    assertSameEvents(scope, peeked, drained);
    return drained;
  }

  /** Ids of the sessions `process list` shows in a scope, read without recording a call. */
  async listedSessionIds(scope: string): Promise<string[]> {
    const instance = await this.ensureStarted();
    const outcome = await instance.call("process", { action: "list" }, { scope, processTool: true });
    if (outcome.kind !== "result") throw new Error(`process list was rejected: ${outcome.message}`);
    const sessions = (outcome.details["sessions"] ?? []) as Array<{ sessionId: string }>;
    return sessions.map((session) => session.sessionId);
  }

  /**
   * `<wait for update N>`: a shell command that returns once the kit has seen the scenario's N-th progress update
   * while the call ran (it then creates the file `.kit-updates/N` in the working directory, which a command run in
   * a sandbox or container sees too), or after 20 sleeps of 0.05 s (at least 1 s) when none came: an implementation
   * that sends no updates while the call runs gets a fixed gap.
   */
  waitForUpdateCommand(count: number): string {
    this.updatesDir ??= join(this.cwd, UPDATES_FOLDER);
    mkdirSync(this.updatesDir, { recursive: true });
    const mark = join(this.updatesDir, String(count));
    return `w=0; until [ -e '${mark}' ] || [ $w -ge ${UPDATE_WAIT_SLEEPS} ]; do sleep 0.05; w=$((w+1)); done`;
  }

  sessionId(name = "id"): string {
    const id = this.vars.get(name);
    if (!id) throw new Error(`No session id is known as <${name}>; call exec first (or remember one under that name).`);
    return id;
  }
}

/** `<wait for update N>` sleeps at most this many times 0.05 s: the 1 s gap of implementations without updates. */
const UPDATE_WAIT_SLEEPS = 20;
/** The folder of the working directory where the kit marks the updates it saw. */
const UPDATES_FOLDER = ".kit-updates";

export function assertSameEvents(scope: string, peeked: SystemEvent[], drained: SystemEvent[]): void {
  if (JSON.stringify(peeked) === JSON.stringify(drained)) return;
  throw new Error(`peekEvents and drainEvents disagree for scope "${scope}": peeked ${JSON.stringify(peeked)}, ` +
    `drained ${JSON.stringify(drained)}.`);
}

setWorldConstructor(ConformanceWorld);
