// The kit's console formatter: cucumber's summary (failures with their errors, then the counts) plus scenario
// progress. On a terminal one live line: done/total, failures so far, elapsed time and an estimate of the rest;
// otherwise (CI logs) a plain line at every tenth of the run and one per failed scenario.
import { SummaryFormatter, type IFormatterOptions } from "@cucumber/cucumber";
import type { Envelope, TestStepResultStatus } from "@cucumber/messages";

const FAILING: readonly TestStepResultStatus[] = ["FAILED", "AMBIGUOUS", "UNDEFINED", "PENDING"] as TestStepResultStatus[];
const PLAIN_STEPS = 10;

export default class ScenarioProgressFormatter extends SummaryFormatter {
  static override readonly documentation = "Scenario progress (live on a terminal, plain lines otherwise), then cucumber's summary.";
  readonly #names = new Map<string, string>();
  readonly #caseOfStart = new Map<string, string>();
  readonly #failedStarts = new Set<string>();
  #total = 0;
  #done = 0;
  #failed = 0;
  #startedAt = Date.now();
  #plainStepsShown = 0;
  readonly #live: boolean;

  constructor(options: IFormatterOptions) {
    super(options);
    this.#live = (options.stream as { isTTY?: boolean }).isTTY === true;
    options.eventBroadcaster.on("envelope", (envelope: Envelope) => this.#onEnvelope(envelope));
  }

  #onEnvelope(envelope: Envelope): void {
    if (envelope.pickle) this.#names.set(envelope.pickle.id, `${envelope.pickle.uri}: ${envelope.pickle.name}`);
    if (envelope.testCase) {
      this.#total += 1;
      this.#names.set(envelope.testCase.id, this.#names.get(envelope.testCase.pickleId) ?? "");
    }
    if (envelope.testRunStarted) this.#startedAt = Date.now();
    if (envelope.testCaseStarted) this.#caseOfStart.set(envelope.testCaseStarted.id, envelope.testCaseStarted.testCaseId);
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
    if (failed) this.log(`failed: ${this.#names.get(this.#caseOfStart.get(startedId) ?? "") ?? startedId}\n`);
    const step = Math.floor((this.#done / Math.max(this.#total, 1)) * PLAIN_STEPS);
    if (step > this.#plainStepsShown) {
      this.#plainStepsShown = step;
      this.log(`${this.#progressLine()}\n`);
    }
  }

  /** "40/86 scenarios · 1 failed · 12s elapsed · about 15s left". */
  #progressLine(): string {
    const elapsedMs = Date.now() - this.#startedAt;
    const left = this.#done > 0 && this.#done < this.#total ? ` · about ${seconds((elapsedMs / this.#done) * (this.#total - this.#done))} left` : "";
    return `${this.#done}/${this.#total} scenarios · ${this.#failed} failed · ${seconds(elapsedMs)} elapsed${left}`;
  }

  override logSummary(...args: Parameters<SummaryFormatter["logSummary"]>): void {
    if (this.#live) this.log("\r\u001b[K");
    super.logSummary(...args);
  }
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)}s`;
