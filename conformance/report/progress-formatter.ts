// The kit's console formatter: cucumber's summary (failures with their errors, then the counts) plus scenario
// progress. On a terminal one live line: done/total, failures so far, elapsed time and an estimate of the rest;
// otherwise (CI logs) a plain line at every tenth of the run and one per failed scenario.
import { SummaryFormatter, type IFormatterOptions } from "@cucumber/cucumber";
import type { Envelope, TestStepResultStatus } from "@cucumber/messages";
import { isAbsolute, relative, resolve } from "node:path";

const FAILING: readonly TestStepResultStatus[] = ["FAILED", "AMBIGUOUS", "UNDEFINED", "PENDING"] as TestStepResultStatus[];
const PLAIN_STEPS = 10;
const RULE_TAG = /^@([A-Z]+-\d+)$/;
const SLOW_TAG = "@slow";
/** The list of loaded feature files is wrapped at this width. */
const CONSOLE_COLUMNS = 100;
/** The live line is redrawn this often, so that the elapsed time moves even while the @slow scenarios run first. */
const TICK_MS = 1000;
/**
 * Without a terminal, a plain progress line follows any 10 s without one (CI logs), from the start: the first
 * scenarios (the @slow ones, or an implementation that loads slowly) can take far longer than a tenth of the run.
 * CONFORMANCE_HEARTBEAT_MS sets another interval.
 */
const HEARTBEAT_MS = Number(process.env["CONFORMANCE_HEARTBEAT_MS"]) > 0 ? Number(process.env["CONFORMANCE_HEARTBEAT_MS"]) : 10_000;
/** An estimate of the rest is shown only once this many scenarios finished, and this share of the run. */
const ESTIMATE_AFTER_SCENARIOS = 10;
const ESTIMATE_AFTER_SHARE = 0.2;

export default class ScenarioProgressFormatter extends SummaryFormatter {
  static override readonly documentation = "Scenario progress (live on a terminal, plain lines otherwise), then cucumber's summary.";
  readonly #names = new Map<string, string>();
  readonly #caseOfStart = new Map<string, string>();
  readonly #failedStarts = new Set<string>();
  readonly #slowPickles = new Set<string>();
  readonly #featureFiles: string[] = [];
  #total = 0;
  #slow = 0;
  #done = 0;
  #failed = 0;
  #startedAt = Date.now();
  #plainStepsShown = 0;
  readonly #live: boolean;
  readonly #cwd: string;
  #ticker: NodeJS.Timeout | undefined;
  #lastPlainLineAt = Date.now();

  constructor(options: IFormatterOptions) {
    super(options);
    this.#live = (options.stream as { isTTY?: boolean }).isTTY === true;
    this.#cwd = options.cwd;
    options.eventBroadcaster.on("envelope", (envelope: Envelope) => this.#onEnvelope(envelope));
    if (!this.#live) {
      this.#ticker = setInterval(() => {
        if (Date.now() - this.#lastPlainLineAt >= HEARTBEAT_MS) this.#plainLine(this.#progressLine());
      }, HEARTBEAT_MS);
      this.#ticker.unref();
    }
  }

  #plainLine(text: string): void {
    this.#lastPlainLineAt = Date.now();
    this.log(`${text}\n`);
  }

  /**
   * From the first second: the feature files loaded, then the live line on a terminal, ticking; one plain line
   * otherwise (once the total is known), which mentions the @slow scenarios only when some were selected.
   */
  #firstScenarioStarted(): void {
    this.log(`${featureFilesLine(this.#featureFiles)}\n`);
    if (!this.#live) {
      const slow = this.#slow === 0 ? "."
        : `; ${this.#slow === 1 ? "the @slow one starts" : `the ${this.#slow} @slow ones start`} first, so the first results can take minutes.`;
      this.#plainLine(`${this.#total} scenarios to run${slow}`);
      return;
    }
    this.log(`\r\u001b[K${this.#progressLine()}`);
    this.#ticker = setInterval(() => this.log(`\r\u001b[K${this.#progressLine()}`), TICK_MS);
    this.#ticker.unref();
  }

  /** A feature file as the user named it: relative to the kit's folder when inside it, absolute otherwise. */
  #shownPath(uri: string): string {
    const path = resolve(this.#cwd, uri);
    const inside = relative(this.#cwd, path);
    return inside.startsWith("..") || isAbsolute(inside) ? path : inside;
  }

  #onEnvelope(envelope: Envelope): void {
    if (envelope.gherkinDocument?.uri) this.#featureFiles.push(this.#shownPath(envelope.gherkinDocument.uri));
    if (envelope.pickle) {
      if (envelope.pickle.tags.some((tag) => tag.name === SLOW_TAG)) this.#slowPickles.add(envelope.pickle.id);
      // The rules a scenario checks, by ID, so that a failure line names them (issue 37).
      const rules = [...new Set(envelope.pickle.tags.map((tag) => RULE_TAG.exec(tag.name)?.[1]).filter(Boolean))];
      this.#names.set(envelope.pickle.id, `${envelope.pickle.uri}: ${envelope.pickle.name}${rules.length > 0 ? ` (${rules.join(", ")})` : ""}`);
    }
    if (envelope.testCase) {
      this.#total += 1;
      if (this.#slowPickles.has(envelope.testCase.pickleId)) this.#slow += 1;
      this.#names.set(envelope.testCase.id, this.#names.get(envelope.testCase.pickleId) ?? "");
    }
    if (envelope.testRunStarted) this.#startedAt = Date.now();
    if (envelope.testRunFinished) clearInterval(this.#ticker);
    if (envelope.testCaseStarted) {
      if (this.#caseOfStart.size === 0) this.#firstScenarioStarted();
      this.#caseOfStart.set(envelope.testCaseStarted.id, envelope.testCaseStarted.testCaseId);
    }
    const step = envelope.testStepFinished;
    if (step && FAILING.includes(step.testStepResult.status)) this.#failedStarts.add(step.testCaseStartedId);
    const finished = envelope.testCaseFinished;
    if (finished && !finished.willBeRetried) this.#scenarioFinished(finished.testCaseStartedId);
  }

  #scenarioFinished(startedId: string): void {
    this.#done += 1;
    const failed = this.#failedStarts.has(startedId);
    if (failed) this.#failed += 1;
    if (this.#live) {
      this.log(`\r\u001b[K${this.#progressLine()}`);
      return;
    }
    if (failed) this.#plainLine(`failed: ${this.#names.get(this.#caseOfStart.get(startedId) ?? "") ?? startedId}`);
    const step = Math.floor((this.#done / Math.max(this.#total, 1)) * PLAIN_STEPS);
    if (step > this.#plainStepsShown) {
      this.#plainStepsShown = step;
      this.#plainLine(this.#progressLine());
    }
  }

  /**
   * "40/86 scenarios · 1 failed · 12s elapsed · about 15s left". The estimate waits for enough finished scenarios:
   * the first ones are the @slow ones, and an average over them overstates the rest many times.
   */
  #progressLine(): string {
    const elapsedMs = Date.now() - this.#startedAt;
    const enough = this.#done >= Math.max(ESTIMATE_AFTER_SCENARIOS, this.#total * ESTIMATE_AFTER_SHARE);
    const left = enough && this.#done < this.#total ? ` · about ${seconds((elapsedMs / this.#done) * (this.#total - this.#done))} left` : "";
    return `${this.#done}/${this.#total} scenarios · ${this.#failed} failed · ${seconds(elapsedMs)} elapsed${left}`;
  }

  override logSummary(...args: Parameters<SummaryFormatter["logSummary"]>): void {
    clearInterval(this.#ticker);
    if (this.#live) this.log("\r\u001b[K");
    super.logSummary(...args);
  }
}

/** "Feature files (2): features/list.feature, features/poll.feature", wrapped, so that a run shows what it loaded. */
export function featureFilesLine(files: readonly string[]): string {
  const lines = [`Feature files (${files.length}):`];
  for (const [index, file] of files.entries()) {
    const entry = `${file}${index < files.length - 1 ? "," : ""}`;
    const last = lines.length - 1;
    if (`${lines[last]} ${entry}`.length <= CONSOLE_COLUMNS) lines[last] = `${lines[last]} ${entry}`;
    else lines.push(`  ${entry}`);
  }
  return lines.join("\n");
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)}s`;
