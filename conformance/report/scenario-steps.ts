// The Given/When/Then of each scenario, for the reports that show scenarios inline (scenarios.html,
// documentation.html): from the message stream of a run, and from the feature files for scenarios it did not load.
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from "@cucumber/gherkin";
import { IdGenerator, type Envelope, type FeatureChild, type GherkinDocument, type RuleChild, type Pickle, type TestStepResultStatus } from "@cucumber/messages";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface ScenarioStep {
  /** `Given `, `When `, `And `, … as written in the feature file. */
  keyword: string;
  text: string;
  docString?: string;
  dataTable?: string[][];
  /** The step's result in the last attempt, when the scenario ran. */
  status?: TestStepResultStatus;
  /** The failure message of a failed step. */
  message?: string;
}

export interface FeatureScenario {
  /** Relative to the folder the features were read from. */
  uri: string;
  name: string;
  line: number;
  astNodeId: string;
  tags: string[];
  steps: ScenarioStep[];
}

/** `features/poll.feature:42`: the key of a scenario's steps, and (slugged) its anchor in scenarios.html. */
export const scenarioKey = (scenario: { uri: string; line?: number }): string => `${scenario.uri}:${scenario.line ?? 0}`;

/** The id of the scenario's section in scenarios.html. */
export const scenarioAnchor = (scenario: { uri: string; line?: number }): string => `s-${scenarioKey(scenario).replace(/[^A-Za-z0-9]+/g, "-")}`;

/** Steps of every pickle of a run, by scenario key, with the step results of the last attempt. */
export function stepsFromMessages(envelopes: Iterable<Envelope>): Map<string, ScenarioStep[]> {
  const documents: GherkinDocument[] = [];
  const pickles: Pickle[] = [];
  const pickleStepOfTestStep = new Map<string, string>();
  const pickleOfTestCase = new Map<string, string>();
  const pickleOfStarted = new Map<string, { pickleId: string; attempt: number }>();
  const results = new Map<string, { attempt: number; byPickleStep: Map<string, { status: TestStepResultStatus; message?: string }> }>();
  for (const envelope of envelopes) {
    if (envelope.gherkinDocument) documents.push(envelope.gherkinDocument);
    if (envelope.pickle) pickles.push(envelope.pickle);
    if (envelope.testCase) {
      pickleOfTestCase.set(envelope.testCase.id, envelope.testCase.pickleId);
      for (const step of envelope.testCase.testSteps) if (step.pickleStepId) pickleStepOfTestStep.set(step.id, step.pickleStepId);
    }
    const started = envelope.testCaseStarted;
    const pickleId = started ? pickleOfTestCase.get(started.testCaseId) : undefined;
    if (started && pickleId) {
      pickleOfStarted.set(started.id, { pickleId, attempt: started.attempt });
      const previous = results.get(pickleId);
      if (!previous || started.attempt >= previous.attempt) results.set(pickleId, { attempt: started.attempt, byPickleStep: new Map() });
    }
    const finished = envelope.testStepFinished;
    const owner = finished ? pickleOfStarted.get(finished.testCaseStartedId) : undefined;
    const pickleStepId = finished ? pickleStepOfTestStep.get(finished.testStepId) : undefined;
    const current = owner ? results.get(owner.pickleId) : undefined;
    if (finished && owner && pickleStepId && current?.attempt === owner.attempt) {
      const { status, message } = finished.testStepResult;
      current.byPickleStep.set(pickleStepId, message ? { status, message } : { status });
    }
  }
  const keywords = stepKeywords(documents);
  const steps = new Map<string, ScenarioStep[]>();
  for (const pickle of pickles) {
    const byPickleStep = results.get(pickle.id)?.byPickleStep;
    steps.set(scenarioKey({ uri: pickle.uri, line: pickle.location?.line }), pickleSteps(pickle, keywords, byPickleStep));
  }
  return steps;
}

/**
 * The scenarios of feature files, by path relative to their folder, with the SHA-1 of the text they were read from.
 * The build writes it for the kit's own features (FEATURE_SCENARIOS_CACHE): a run narrowed by tags reports every
 * scenario it did not load, and parsing their files cost about 0.12 s of CPU per run (issue 36).
 */
export type FeatureScenarioCache = Record<string, { sha1: string; scenarios: FeatureScenario[] }>;

/** Where the build writes the cache of the kit's features, next to this module (in dist/ and in the kit's package). */
export const FEATURE_SCENARIOS_CACHE = fileURLToPath(new URL("./feature-scenarios.json", import.meta.url));

/** The cache the build wrote, or an empty one (a run from the sources). */
export function loadFeatureScenarioCache(path = FEATURE_SCENARIOS_CACHE): FeatureScenarioCache {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as FeatureScenarioCache;
  } catch {
    return {};
  }
}

/** The cache of every feature file under `featuresDir`. */
export function buildFeatureScenarioCache(featuresDir: string): FeatureScenarioCache {
  const cache: FeatureScenarioCache = {};
  for (const file of featureFiles(featuresDir)) {
    const text = readFileSync(join(featuresDir, file), "utf8");
    cache[file] = { sha1: sha1(text), scenarios: parseScenarios(file, text) };
  }
  return cache;
}

/**
 * Every scenario (pickle) of the feature files under `featuresDir`, with its steps; `includeFile` (given the path
 * relative to `featuresDir`) leaves files out unparsed. A file whose text `cache` holds is not parsed again.
 */
export function readFeatureScenarios(
  featuresDir: string, includeFile: (file: string) => boolean = () => true, cache: FeatureScenarioCache = {},
): FeatureScenario[] {
  return featureFiles(featuresDir).filter(includeFile).flatMap((file) => {
    const text = readFileSync(join(featuresDir, file), "utf8");
    const cached = cache[file];
    return cached !== undefined && cached.sha1 === sha1(text) ? cached.scenarios : parseScenarios(file, text);
  });
}

const featureFiles = (featuresDir: string): string[] =>
  (readdirSync(featuresDir, { recursive: true }) as string[]).filter((file) => file.endsWith(".feature")).sort();

const sha1 = (text: string): string => createHash("sha1").update(text).digest("hex");

function parseScenarios(file: string, text: string): FeatureScenario[] {
  const newId = IdGenerator.incrementing();
  const document = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher()).parse(text);
  const keywords = stepKeywords([document]);
  return compile(document, file, newId).map((pickle) => ({
    uri: file, name: pickle.name, line: pickle.location?.line ?? 0, astNodeId: pickle.astNodeIds[0] ?? "",
    tags: pickle.tags.map((tag) => tag.name), steps: pickleSteps(pickle, keywords),
  }));
}

function pickleSteps(pickle: Pickle, keywords: Map<string, string>, results?: Map<string, { status: TestStepResultStatus; message?: string }>): ScenarioStep[] {
  return pickle.steps.map((step) => {
    const result: ScenarioStep = { keyword: keywords.get(step.astNodeIds[0] ?? "") ?? "* ", text: step.text };
    if (step.argument?.docString) result.docString = step.argument.docString.content;
    if (step.argument?.dataTable) result.dataTable = step.argument.dataTable.rows.map((row) => row.cells.map((cell) => cell.value));
    const outcome = results?.get(step.id);
    if (outcome) Object.assign(result, outcome);
    return result;
  });
}

/** Step node id → keyword, for the steps of backgrounds, scenarios and rules. */
function stepKeywords(documents: readonly GherkinDocument[]): Map<string, string> {
  const keywords = new Map<string, string>();
  const visit = (children: ReadonlyArray<FeatureChild | RuleChild>): void => {
    for (const child of children) {
      for (const step of [...(child.background?.steps ?? []), ...(child.scenario?.steps ?? [])]) keywords.set(step.id, step.keyword);
      if ("rule" in child && child.rule) visit(child.rule.children);
    }
  };
  for (const document of documents) visit(document.feature?.children ?? []);
  return keywords;
}
