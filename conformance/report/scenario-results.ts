// Reads the cucumber message stream (messages.ndjson) into one result per scenario (pickle), with the status of
// its last attempt mapped onto the verdict vocabulary of the compliance matrix (conformance/INTERPRETING.md).
import type { Envelope, Pickle, TestCase, TestCaseStarted, TestStepResultStatus } from "@cucumber/messages";

/** What happened to one scenario in the run. */
export type ScenarioStatus = "passed" | "failed" | "skipped" | "not applicable" | "not run";

export interface ScenarioResult {
  name: string;
  /** The feature file, relative to the directory cucumber ran in (e.g. `features/poll.feature`). */
  uri: string;
  /** The line of the scenario (or of its Examples row); absent for scenarios known only from the kit's files. */
  line?: number;
  /** The Scenario node id: cucumber.html uses it as the id of the scenario's heading. */
  astNodeId?: string;
  tags: string[];
  status: ScenarioStatus;
  /** The cucumber status of the last attempt (`PASSED`, `UNDEFINED`, …) when the scenario ran. */
  cucumberStatus?: TestStepResultStatus;
  /** Set when the scenario passed on an attempt after the first (`--retry`). */
  passedOnRetry?: true;
  /** For `not applicable`: the capability tags of the scenario, one of which the adapter lacks. */
  capabilities?: string[];
}

/**
 * Tags whose capability the Before hook checks (step-definitions/support/hooks.ts): when the adapter lacks one,
 * the hook returns "skipped" before any step runs.
 */
export const CAPABILITY_TAGS: readonly string[] = ["@pty", "@executor", "@bridge", "@faults", "@langchain", "@watch", "@dedupe"];

/** Cucumber's order of severity; a scenario's status is its most severe step result. */
const SEVERITY: readonly TestStepResultStatus[] = [
  "UNKNOWN", "PASSED", "SKIPPED", "PENDING", "UNDEFINED", "AMBIGUOUS", "FAILED",
] as TestStepResultStatus[];

/** Splits an NDJSON message stream into envelopes. */
export function parseMessageStream(ndjson: string): Envelope[] {
  return ndjson.split("\n").filter((line) => line.trim() !== "").map((line, index) => {
    try {
      return JSON.parse(line) as Envelope;
    } catch (error) {
      throw new Error(`messages.ndjson line ${index + 1} is not JSON: ${(error as Error).message}`);
    }
  });
}

interface StepOutcome { status: TestStepResultStatus; isHook: boolean }
interface FinishedStep { testStepId: string; status: TestStepResultStatus }

/** One result per pickle of the stream, in stream order. */
export function collectScenarioResults(envelopes: Iterable<Envelope>): ScenarioResult[] {
  const pickles: Pickle[] = [];
  const testCaseByPickle = new Map<string, TestCase>();
  const lastStartByTestCase = new Map<string, TestCaseStarted>();
  const finished = new Set<string>();
  const finishedSteps = new Map<string, FinishedStep[]>();
  for (const envelope of envelopes) {
    if (envelope.pickle) pickles.push(envelope.pickle);
    if (envelope.testCase) testCaseByPickle.set(envelope.testCase.pickleId, envelope.testCase);
    const started = envelope.testCaseStarted;
    if (started) {
      const previous = lastStartByTestCase.get(started.testCaseId);
      if (!previous || started.attempt >= previous.attempt) lastStartByTestCase.set(started.testCaseId, started);
    }
    if (envelope.testCaseFinished) finished.add(envelope.testCaseFinished.testCaseStartedId);
    const step = envelope.testStepFinished;
    if (step) {
      const list = finishedSteps.get(step.testCaseStartedId) ?? [];
      list.push({ testStepId: step.testStepId, status: step.testStepResult.status });
      finishedSteps.set(step.testCaseStartedId, list);
    }
  }
  return pickles.map((pickle) => {
    const testCase = testCaseByPickle.get(pickle.id);
    const started = testCase ? lastStartByTestCase.get(testCase.id) : undefined;
    const base = describePickle(pickle);
    if (!testCase || !started) return { ...base, status: "not run" };
    const hookSteps = new Set(testCase.testSteps.filter((step) => step.hookId !== undefined).map((step) => step.id));
    const steps = (finishedSteps.get(started.id) ?? []).map(({ testStepId, status }) => ({ status, isHook: hookSteps.has(testStepId) }));
    // A test case that started but never finished (a crashed worker) did not pass: it counts as UNKNOWN → failed.
    const cucumberStatus = finished.has(started.id) ? mostSevere(steps) : ("UNKNOWN" as TestStepResultStatus);
    const verdict = classify(cucumberStatus, steps, base.tags);
    return { ...base, cucumberStatus, ...verdict, ...(verdict.status === "passed" && started.attempt > 0 ? { passedOnRetry: true as const } : {}) };
  });
}

function describePickle(pickle: Pickle): Omit<ScenarioResult, "status"> {
  const result: Omit<ScenarioResult, "status"> = { name: pickle.name, uri: pickle.uri, tags: pickle.tags.map((tag) => tag.name) };
  if (pickle.location) result.line = pickle.location.line;
  const scenarioNode = pickle.astNodeIds[0];
  if (scenarioNode) result.astNodeId = scenarioNode;
  return result;
}

function mostSevere(steps: StepOutcome[]): TestStepResultStatus {
  return steps.reduce<TestStepResultStatus>(
    (worst, { status }) => (SEVERITY.indexOf(status) > SEVERITY.indexOf(worst) ? status : worst),
    (steps.length === 0 ? "PASSED" : "UNKNOWN") as TestStepResultStatus,
  );
}

function classify(status: TestStepResultStatus, steps: StepOutcome[], tags: string[]): Pick<ScenarioResult, "status" | "capabilities"> {
  if (status === "PASSED") return { status: "passed" };
  if (status !== "SKIPPED") return { status: "failed" }; // strict mode: pending, undefined and ambiguous fail the run
  const capabilities = tags.filter((tag) => CAPABILITY_TAGS.includes(tag));
  const firstNotPassed = steps.find((step) => step.status !== "PASSED");
  if (capabilities.length > 0 && firstNotPassed?.isHook) return { status: "not applicable", capabilities };
  return { status: "skipped" };
}
