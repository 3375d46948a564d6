// The compliance matrix: scenario statuses from a hand-made message stream, rule verdicts, counts, the level
// reached, the Markdown and HTML renderings, and one real run of the kit's CLI on a fixture feature.
import type { Envelope, TestStepResultStatus } from "@cucumber/messages";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RuleEntry } from "../../conformance/catalog/spec-rules.js";
import { main } from "../../conformance/cli.js";
import { buildComplianceMatrix, deriveVerdict, type ComplianceMatrix, type RuleVerdict } from "../../conformance/report/compliance-matrix.js";
import { escapeHtml, inlineMarkdown, renderHtml } from "../../conformance/report/render-html.js";
import { cell, renderMarkdown, ruleSection } from "../../conformance/report/render-markdown.js";
import { levelSentence, nextLevelSentence } from "../../conformance/report/report-text.js";
import { collectScenarioResults, parseMessageStream, type ScenarioResult, type ScenarioStatus } from "../../conformance/report/scenario-results.js";
import { parseDivergences } from "../../conformance/report/divergences.js";
import { renderStepVocabulary, stepVocabularyFromMessages } from "../../conformance/report/step-vocabulary.js";
import { writeComplianceReport } from "../../conformance/report/write-compliance-report.js";

// ---- a hand-made message stream ----

type Status = "PASSED" | "FAILED" | "SKIPPED" | "UNDEFINED" | "PENDING" | "AMBIGUOUS";

interface ScenarioSpec {
  name: string;
  tags: string[];
  line?: number;
  /** Results of the Before hook and the steps, per attempt; omit for a scenario that was not selected. */
  attempts?: Status[][];
  /** False: the last attempt started but never finished. */
  finished?: boolean;
}

let nextId = 0;
const newId = (kind: string): string => `${kind}-${(nextId += 1)}`;

/** Envelopes for one scenario: its pickle, and when selected its test case, attempts and step results. */
function scenarioEnvelopes({ name, tags, line = 1, attempts, finished = true }: ScenarioSpec): Envelope[] {
  const pickleId = newId("pickle");
  const pickle = {
    id: pickleId, uri: "features/fixture.feature", location: { line, column: 5 }, name, language: "en", steps: [],
    tags: tags.map((tag) => ({ name: tag, astNodeId: newId("tag") })), astNodeIds: [`node-${name}`],
  };
  const envelopes = [{ pickle }] as unknown as Envelope[];
  if (!attempts) return envelopes;
  const stepCount = Math.max(...attempts.map((results) => results.length));
  const testSteps = Array.from({ length: stepCount }, (_, index) => (index === 0
    ? { id: newId("step"), hookId: "before-hook" }
    : { id: newId("step"), pickleStepId: newId("pickle-step") }));
  const testCaseId = newId("test-case");
  envelopes.push({ testCase: { id: testCaseId, pickleId, testSteps } } as unknown as Envelope);
  attempts.forEach((results, attempt) => {
    const startedId = newId("started");
    envelopes.push({ testCaseStarted: { id: startedId, testCaseId, attempt } } as unknown as Envelope);
    results.forEach((status, index) => envelopes.push({
      testStepFinished: { testCaseStartedId: startedId, testStepId: testSteps[index]!.id, testStepResult: { status } },
    } as unknown as Envelope));
    const last = attempt === attempts.length - 1;
    if (!last || finished) {
      envelopes.push({ testCaseFinished: { testCaseStartedId: startedId, willBeRetried: !last } } as unknown as Envelope);
    }
  });
  return envelopes;
}

const PASS: Status[] = ["PASSED", "PASSED", "PASSED"];
const FAIL: Status[] = ["PASSED", "FAILED", "SKIPPED"];
const CAPABILITY_SKIP: Status[] = ["SKIPPED", "SKIPPED", "SKIPPED"];

function resultsOf(...specs: ScenarioSpec[]): ScenarioResult[] {
  const ndjson = specs.flatMap(scenarioEnvelopes).map((envelope) => JSON.stringify(envelope)).join("\n");
  return collectScenarioResults(parseMessageStream(`${ndjson}\n`));
}

function rule(id: string, profile: RuleEntry["profile"], chapter = "1. Settings"): RuleEntry {
  return { id, prefix: id.split("-")[0]!, profile, chapter, section: "1.2 Rules", summary: `Summary of ${id}.` };
}

describe("scenario statuses read from the message stream", () => {
  const cases: Array<[string, ScenarioSpec, ScenarioStatus, string | undefined]> = [
    ["every step passed", { name: "a", tags: ["@doc"], attempts: [PASS] }, "passed", "PASSED"],
    ["a step failed", { name: "a", tags: ["@doc"], attempts: [FAIL] }, "failed", "FAILED"],
    ["a step is undefined (strict mode)", { name: "a", tags: ["@doc"], attempts: [["PASSED", "UNDEFINED", "SKIPPED"]] }, "failed", "UNDEFINED"],
    ["a step is pending (strict mode)", { name: "a", tags: ["@doc"], attempts: [["PASSED", "PENDING"]] }, "failed", "PENDING"],
    ["the Before hook skipped a @pty scenario", { name: "a", tags: ["@pty", "@doc"], attempts: [CAPABILITY_SKIP] }, "not applicable", "SKIPPED"],
    ["the Before hook skipped a scenario without capability tag", { name: "a", tags: ["@doc"], attempts: [CAPABILITY_SKIP] }, "skipped", "SKIPPED"],
    ["a step skipped a @pty scenario after the hook passed", { name: "a", tags: ["@pty", "@doc"], attempts: [["PASSED", "SKIPPED"]] }, "skipped", "SKIPPED"],
    ["the scenario was not selected", { name: "a", tags: ["@doc"] }, "not run", undefined],
    ["a retried scenario passed on its last attempt", { name: "a", tags: ["@doc"], attempts: [FAIL, PASS] }, "passed", "PASSED"],
    ["the scenario started and never finished", { name: "a", tags: ["@doc"], attempts: [["PASSED"]], finished: false }, "failed", "UNKNOWN"],
  ];

  it.each(cases)("when %s the status is as expected", (_title, spec, status, cucumberStatus) => {
    const [result] = resultsOf(spec);
    expect(result?.status).toBe(status);
    expect(result?.cucumberStatus).toBe(cucumberStatus);
  });

  it("keeps the name, file, line, scenario node id and tags of each pickle", () => {
    const [result] = resultsOf({ name: "named", tags: ["@SET-01", "@pty", "@doc"], line: 42, attempts: [CAPABILITY_SKIP] });
    expect(result).toEqual({
      name: "named", uri: "features/fixture.feature", line: 42, astNodeId: "node-named", tags: ["@SET-01", "@pty", "@doc"],
      status: "not applicable", cucumberStatus: "SKIPPED" as TestStepResultStatus, capabilities: ["@pty"],
    });
  });

  it("marks a scenario that passed only on a retry, and only that one", () => {
    const [retried, first, failedTwice] = resultsOf(
      { name: "retried", tags: ["@doc"], attempts: [["PASSED", "FAILED"], ["PASSED", "PASSED"]] },
      { name: "first", tags: ["@doc"], attempts: [["PASSED", "PASSED"]] },
      { name: "twice", tags: ["@doc"], attempts: [["PASSED", "FAILED"], ["PASSED", "FAILED"]] },
    );
    expect(retried).toMatchObject({ status: "passed", passedOnRetry: true });
    expect(first?.passedOnRetry).toBeUndefined();
    expect(failedTwice).toMatchObject({ status: "failed" });
    expect(failedTwice?.passedOnRetry).toBeUndefined();
  });

  it("rejects a stream line that is not JSON, naming the line", () => {
    expect(() => parseMessageStream('{"meta": {}}\nnot json\n')).toThrow(/line 2 is not JSON/);
  });
});

describe("the verdict of a rule", () => {
  const cases: Array<[ScenarioStatus[], RuleVerdict]> = [
    [[], "no scenario"],
    [["passed"], "passed"],
    [["passed", "failed"], "failed"],
    [["not run", "failed"], "failed"],
    [["passed", "not run"], "passed"],
    [["not run", "not run"], "not run"],
    [["not applicable"], "not applicable"],
    [["not applicable", "not run"], "not applicable"],
    [["not applicable", "passed"], "passed"],
    [["skipped"], "skipped"],
    [["passed", "skipped"], "skipped"],
    [["skipped", "not applicable"], "skipped"],
  ];

  it.each(cases)("from scenario statuses %j is %s", (statuses, verdict) => {
    expect(deriveVerdict(statuses.map((status) => ({ status })))).toBe(verdict);
  });
});

describe("the compliance matrix of a small run", () => {
  const rules = [
    rule("SET-01", "doc"), rule("SET-02", "doc"), rule("SET-03", "doc"),
    rule("SET-04", "legacy-doc"), rule("SET-05", "upstream"), rule("SET-06", "upstream", "2. Other"),
  ];
  const scenarios = resultsOf(
    { name: "doc passes", tags: ["@SET-01", "@SET-01", "@doc"], line: 10, attempts: [PASS] },
    { name: "upstream pins SET-01 and fails", tags: ["@SET-01", "@SET-05", "@upstream"], line: 20, attempts: [FAIL] },
    { name: "pty scenario", tags: ["@SET-02", "@pty", "@doc"], line: 30, attempts: [CAPABILITY_SKIP] },
    { name: "slow doc scenario", tags: ["@SET-03", "@doc", "@slow"], line: 40 },
    { name: "fast doc scenario", tags: ["@SET-03", "@doc"], line: 50, attempts: [PASS] },
    { name: "legacy scenario", tags: ["@SET-04", "@legacy-doc"], line: 60, attempts: [PASS] },
  );
  const matrix = buildComplianceMatrix({ rules, scenarios });
  const verdicts = Object.fromEntries(matrix.rows.map((row) => [row.id, row.verdict]));

  it("gives each rule the verdict of the scenarios of its own profile", () => {
    expect(verdicts).toEqual({
      "SET-01": "passed", "SET-02": "not applicable", "SET-03": "passed",
      "SET-04": "passed", "SET-05": "failed", "SET-06": "no scenario",
    });
  });

  it("lists a scenario of a more specific profile under 'also' without counting it", () => {
    const row = matrix.rows.find((candidate) => candidate.id === "SET-01")!;
    expect(row.scenarios.map((link) => link.name)).toEqual(["doc passes"]);
    expect(row.alsoExercisedBy).toEqual([expect.objectContaining({ name: "upstream pins SET-01 and fails", profile: "upstream", status: "failed" })]);
  });

  it("counts verdicts per profile and in total", () => {
    expect(matrix.counts.doc).toEqual({ rules: 3, passed: 2, failed: 0, diverges: 0, skipped: 0, "not applicable": 1, "not run": 0, "no scenario": 0, "not in this edition": 0 });
    expect(matrix.counts["legacy-doc"]).toMatchObject({ rules: 1, passed: 1 });
    expect(matrix.counts.upstream).toMatchObject({ rules: 2, failed: 1, "no scenario": 1 });
    expect(matrix.counts.all).toMatchObject({ rules: 6, passed: 3, failed: 1, "not applicable": 1, "no scenario": 1 });
  });

  it("reaches Documented + compatibility, with the not applicable rule counted, and names what blocks Reference", () => {
    expect(matrix.level).toBe("Documented + compatibility");
    expect(matrix.notApplicableInLevel).toBe(1);
    expect(matrix.nextLevel).toEqual({ name: "Reference", blockedBy: { failed: 1 } });
    expect(levelSentence(matrix)).toBe("Documented + compatibility (1 rule not applicable: capability missing)");
    expect(nextLevelSentence(matrix)).toBe("Reference is not reached; rules blocking it: 1 failed.");
  });

  it("keeps the chapters in catalog order", () => {
    expect(matrix.chapters).toEqual(["1. Settings", "2. Other"]);
  });

  it("writes one Markdown section per rule with its verdict, its link to the SPEC text and its scenarios", () => {
    const markdown = renderMarkdown(matrix);
    expect(markdown).toContain("**Level reached: Documented + compatibility (1 rule not applicable: capability missing)** (SPEC\n§0.4)");
    expect(markdown).toContain("| doc | 3 | 2 | 0 | 0 | 0 | 1 | 0 | 0 |");
    expect(markdown).toContain("| **all** | 6 | 3 | 1 | 0 | 0 | 1 | 0 | 1 |");
    expect(markdown).toContain("## 2. Other\n\n### [SET-06](spec.html#SET-06) · upstream · ∅ no scenario\n\nSummary of SET-06.\n\nNo scenario.\n");
    const section = (id: string) => ruleSection(matrix.rows.find((candidate) => candidate.id === id)!).join("\n");
    expect(section("SET-01")).toBe([
      "### [SET-01](spec.html#SET-01) · doc · ✅ passed", "", "Summary of SET-01.", "",
      "- ✅ doc passes (`features/fixture.feature:10`)",
      "- also ❌ upstream pins SET-01 and fails (`features/fixture.feature:20`) @upstream",
    ].join("\n"));
    expect(section("SET-02")).toBe([
      "### [SET-02](spec.html#SET-02) · doc · ➖ not applicable (capability pty missing)", "", "Summary of SET-02.", "",
      "- ➖ pty scenario (`features/fixture.feature:30`) — not applicable (capability pty missing)",
    ].join("\n"));
    expect(section("SET-03")).toContain("- ⏸️ slow doc scenario (`features/fixture.feature:40`)\n- ✅ fast doc scenario (`features/fixture.feature:50`)");
  });

  it("renders a standalone HTML page whose rules link to their SPEC text and whose scenarios open expanded in scenarios.html", () => {
    const html = renderHtml(matrix);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<(?:link|script|img)[^>]+(?:src|href)=/);
    expect(html).toContain('<td class="id"><a href="spec.html#SET-01">SET-01</a> <a class="cucumber" href="cucumber.html?query=%40SET-01"');
    expect(html).toContain('<a href="scenarios.html#s-features-fixture-feature-10">doc passes</a> <code>features/fixture.feature:10</code>');
    expect(html).toContain('<span class="v v-not-applicable">not applicable (capability pty missing)</span>');
    expect(html).toContain('<tr id="SET-05" data-verdict="failed">');
    expect(html).toContain("Level reached: <strong>Documented + compatibility (1 rule not applicable: capability missing)</strong>");
  });
});

describe("known divergences (--divergences)", () => {
  const rules = [rule("SET-01", "doc"), rule("SET-02", "doc"), rule("SET-03", "doc")];
  const scenarios: ScenarioResult[] = [
    { name: "fails", uri: "f.feature", tags: ["@SET-01", "@doc"], status: "failed" },
    { name: "fails too", uri: "f.feature", tags: ["@SET-02", "@doc"], status: "failed" },
    { name: "passes", uri: "f.feature", tags: ["@SET-03", "@doc"], status: "passed" },
  ];
  const note = "Sessions are recorded in a state database; see docs/UPSTREAM.md.";
  const matrix = buildComplianceMatrix({ rules, scenarios, divergences: { "SET-01": note, "SET-03": "unused" } });
  const row = (id: string) => matrix.rows.find((candidate) => candidate.id === id)!;

  it("shows a failed rule with a note as diverges, with the note, and a failed rule without one as failed", () => {
    expect(row("SET-01")).toMatchObject({ verdict: "diverges", divergence: note });
    expect(row("SET-02").verdict).toBe("failed");
    expect(row("SET-02").divergence).toBeUndefined();
  });

  it("leaves a passing rule passed, whatever the note says", () => {
    expect(row("SET-03").verdict).toBe("passed");
    expect(row("SET-03").divergence).toBeUndefined();
  });

  it("still does not claim the level, and renders the note", () => {
    expect(matrix.level).toBe("none");
    expect(matrix.nextLevel).toEqual({ name: "Documented", blockedBy: { failed: 1, diverges: 1 } });
    expect(renderMarkdown(matrix)).toContain(`### [SET-01](spec.html#SET-01) · doc · ⚠️ diverges (explained)\n\nSummary of SET-01.\n\nDivergence (explained): ${note}`);
    expect(renderHtml(matrix)).toContain('<tr id="SET-01" data-verdict="diverges">');
  });

  it.each([
    [[], "expected an object"],
    [{ "NOPE-1": "x" }, '"NOPE-1" is not a rule id'],
    [{ "SET-01": "  " }, "the note of SET-01 must be a non-empty string"],
  ])("refuses the divergence file %j, saying what is wrong", (value, message) => {
    expect(() => parseDivergences(value, rules)).toThrow(message);
  });
});

describe("the level reached", () => {
  const levelOf = (verdicts: Array<[RuleEntry["profile"], ScenarioStatus]>): ComplianceMatrix => {
    const rules = verdicts.map(([profile], index) => rule(`SET-${index + 1}`, profile));
    const scenarios = verdicts.map(([profile, status], index): ScenarioResult => (
      { name: `s${index}`, uri: "f.feature", tags: [`@SET-${index + 1}`, `@${profile}`], status }));
    return buildComplianceMatrix({ rules, scenarios });
  };

  it("is Reference when every rule passed", () => {
    expect(levelOf([["doc", "passed"], ["legacy-doc", "passed"], ["upstream", "passed"]]).level).toBe("Reference");
  });

  it("is Documented after a documented-level run, the other profiles being not run", () => {
    const matrix = levelOf([["doc", "passed"], ["legacy-doc", "not run"], ["upstream", "not run"]]);
    expect(matrix.level).toBe("Documented");
    expect(matrix.nextLevel).toEqual({ name: "Documented + compatibility", blockedBy: { "not run": 1 } });
    // not selected is not blocking (issue 35: "rules blocking it: 7 not run" beside a reached level)
    expect(nextLevelSentence(matrix)).toBe("Documented + compatibility was not assessed: 1 of its rules was not selected by this run (see --level).");
    expect(nextLevelSentence(matrix)).not.toContain("blocking");
  });

  it("names what blocks the next level apart from the rules the run did not select", () => {
    const matrix = levelOf([["doc", "passed"], ["legacy-doc", "failed"], ["legacy-doc", "not run"], ["legacy-doc", "not run"]]);
    expect(nextLevelSentence(matrix)).toBe("Documented + compatibility is not reached; rules blocking it: 1 failed (and 2 rules not selected).");
  });

  it("is none when a doc rule failed, even if every other rule passed", () => {
    const matrix = levelOf([["doc", "failed"], ["doc", "passed"], ["legacy-doc", "passed"], ["upstream", "passed"]]);
    expect(matrix.level).toBe("none");
    expect(nextLevelSentence(matrix)).toBe("Documented is not reached; rules blocking it: 1 failed.");
  });

  it("is never reached vacuously: all doc rules not applicable give none", () => {
    const matrix = levelOf([["doc", "not applicable"], ["upstream", "passed"]]);
    expect(matrix.level).toBe("none");
    expect(matrix.nextLevel).toEqual({ name: "Documented", blockedBy: {}, noRulePassed: true });
    expect(nextLevelSentence(matrix)).toBe("Documented is not reached: none of its rules passed.");
  });
});

describe("scenarios of profile reference (the reference's own decisions)", () => {
  const rules = [rule("SET-01", "upstream"), rule("SET-02", "upstream")];
  const scenarios = resultsOf(
    { name: "the reference's decision for SET-01", tags: ["@SET-01", "@reference"], line: 10, attempts: [FAIL] },
    { name: "upstream pin of SET-02", tags: ["@SET-02", "@upstream"], line: 20, attempts: [PASS] },
    { name: "the reference refines SET-02", tags: ["@SET-02", "@reference"], line: 30, attempts: [FAIL] },
  );
  const matrix = buildComplianceMatrix({ rules, scenarios });
  const row = (id: string) => matrix.rows.find((candidate) => candidate.id === id)!;

  it("decide a rule that has no scenario of its own profile", () => {
    expect(row("SET-01")).toMatchObject({ verdict: "failed", scenarios: [expect.objectContaining({ profile: "reference" })] });
  });

  it("are only listed beside a rule that has scenarios of its own profile", () => {
    expect(row("SET-02").verdict).toBe("passed");
    expect(row("SET-02").alsoExercisedBy).toEqual([expect.objectContaining({ name: "the reference refines SET-02" })]);
  });

  it("count for the Reference level only", () => {
    expect(matrix.level).toBe("none");
    const onlyReferenceFails = buildComplianceMatrix({ rules: [rule("SET-03", "doc"), rule("SET-04", "upstream")], scenarios: resultsOf(
      { name: "doc", tags: ["@SET-03", "@doc"], line: 40, attempts: [PASS] },
      { name: "ours", tags: ["@SET-04", "@reference"], line: 50, attempts: [FAIL] },
    ) });
    expect(onlyReferenceFails.level).toBe("Documented + compatibility");
    expect(onlyReferenceFails.nextLevel).toEqual({ name: "Reference", blockedBy: { failed: 1 } });
  });
});

describe("text in the renderings", () => {
  it("escapes table cells for Markdown, keeping code spans", () => {
    expect(cell("a <id> | `<id> x`\nnext")).toBe("a &lt;id> \\| `<id> x` next");
  });

  it("turns code spans and emphasis into HTML and escapes the rest", () => {
    expect(inlineMarkdown("a *present* `<id>` & <b>")).toBe("a <em>present</em> <code>&lt;id&gt;</code> &amp; &lt;b&gt;");
    expect(escapeHtml('"<&>"')).toBe("&quot;&lt;&amp;&gt;&quot;");
  });
});

// ---- a real run of the kit's CLI on a fixture feature, against a fake adapter without the pty capability ----

const FIXTURE_ADAPTER = `
const result = (text) => ({ kind: "result", text, details: { status: "completed", sessionId: "s1" }, isError: false, updates: [] });
export default () => ({
  name: "fixture", capabilities: [],
  async start() {
    return {
      async call(tool, args) { return result(args.command === "echo hi" ? "hi" : "?"); },
      async drainEvents() { return []; }, async peekEvents() { return []; }, async wakes() { return []; },
      async clearFinished() { return 0; }, async liveSessionIds() { return []; }, async dispose() {},
    };
  },
});
`;

const FIXTURE_FEATURE = `Feature: fixture

  @SET-01 @doc
  Scenario: a passing doc scenario
    When exec runs "echo hi"
    Then the text is "hi"

  @SET-09 @doc @pty
  Scenario: a pty scenario the adapter cannot run
    When exec runs "echo hi"
    Then the text is "hi"

  @SET-10 @doc
  Scenario: a failing doc scenario
    When exec runs "echo hi"
    Then the text is "bye"

  @SET-06 @legacy-doc @slow
  Scenario: a slow legacy scenario
    When exec runs "echo hi"
    Then the text is "hi"

  @SET-01 @SET-02 @upstream
  Scenario: an upstream scenario that fails
    When exec runs "echo hi"
    Then the text is "nope"
`;

describe("a kit run with --report", () => {
  let dir = "";
  let exitCode = -1;
  let printed: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "compliance-matrix-test-"));
    mkdirSync(join(dir, "features"));
    writeFileSync(join(dir, "adapter.mjs"), FIXTURE_ADAPTER);
    writeFileSync(join(dir, "features/fixture.feature"), FIXTURE_FEATURE);
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => { printed.push(args.join(" ")); });
    const savedAdapter = process.env["CONFORMANCE_ADAPTER"];
    try {
      exitCode = await main([
        "--adapter", join(dir, "adapter.mjs"), "--paths", join(dir, "features/fixture.feature"),
        "--tags", "not @slow", "--report", join(dir, "report"),
      ]);
    } finally {
      log.mockRestore();
      if (savedAdapter === undefined) delete process.env["CONFORMANCE_ADAPTER"];
      else process.env["CONFORMANCE_ADAPTER"] = savedAdapter;
    }
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const readMatrix = (): ComplianceMatrix => JSON.parse(readFileSync(join(dir, "report/compliance.json"), "utf8")) as ComplianceMatrix;
  const row = (id: string) => readMatrix().rows.find((candidate) => candidate.id === id)!;

  it("fails the run and prints the path of compliance.md, saying that --tags made it a partial run", () => {
    expect(exitCode).toBe(1);
    const selected = readMatrix().rows.filter((candidate) => !["not run", "no scenario"].includes(candidate.verdict)).length;
    expect(selected).toBe(4); // SET-01, SET-02, SET-09 (not applicable), SET-10; the @slow SET-06 was not selected
    expect(printed).toContain(`Compliance matrix: ${join(dir, "report/compliance.md")} (partial run: 4 of ${readMatrix().rows.length} rules selected)`);
    expect(readFileSync(join(dir, "report/compliance.md"), "utf8")).toContain(
      `**Partial run: 4 of ${readMatrix().rows.length} rules selected** (narrowed by \`--tags\` or \`--paths\`: no level is assessed)`);
  });

  it("prints the verdicts per chapter at the end", () => {
    const table = printed.find((text) => text.includes("Chapter")) ?? "";
    expect(table).toMatch(/^\nChapter +Rules +passed +failed +diverges +skipped +not applicable +not selected +no scenario\n-+ /);
    expect(table).toMatch(/\nAll rules +\d+ +1 +2 +0 +0 +1 +\d+ +\d+\n$/);
  });

  it("records the adapter's name in the matrix and shows it in both renderings", () => {
    expect(readMatrix().run).toMatchObject({ adapterName: "fixture", partial: true });
    expect(readFileSync(join(dir, "report/compliance.md"), "utf8")).toContain("Implementation **fixture** · Generated ");
    expect(readFileSync(join(dir, "report/compliance.html"), "utf8")).toContain("Implementation <strong>fixture</strong> · Generated ");
  });

  it("writes the three matrix files and the pages they link to next to the cucumber reports", () => {
    for (const file of ["compliance.md", "compliance.html", "compliance.json", "spec.html", "scenarios.html", "documentation.html", "cucumber.html", "messages.ndjson"]) {
      expect(readFileSync(join(dir, "report", file), "utf8").length).toBeGreaterThan(0);
    }
    expect(readFileSync(join(dir, "report/compliance.md"), "utf8")).toContain("tag expression `(not @slow)`");
  });

  it("derives the verdicts of the fixture's rules", () => {
    expect(row("SET-01").verdict).toBe("passed");
    expect(row("SET-01").alsoExercisedBy.map((link) => link.status)).toEqual(["failed"]);
    expect(row("SET-09").scenarios.find((link) => link.uri.endsWith("fixture.feature"))).toMatchObject({
      name: "a pty scenario the adapter cannot run", status: "not applicable", capabilities: ["@pty"], line: 9,
    });
    expect(row("SET-10").verdict).toBe("failed");
    expect(row("SET-02").verdict).toBe("failed");
    expect(row("SET-06").scenarios.find((link) => link.uri.endsWith("fixture.feature"))?.status).toBe("not run");
    expect(readMatrix().level).toBe("none");
  });

  it("says in cucumber.html why a scenario was skipped: the capability the adapter lacks", () => {
    const messages = parseMessageStream(readFileSync(join(dir, "report/messages.ndjson"), "utf8"));
    const logs = messages.flatMap((envelope) => (envelope.attachment ? [envelope.attachment.body] : []));
    expect(logs).toEqual(["not applicable (capability pty missing)"]);
  });

  it("shows every scenario expanded in scenarios.html, with its steps and the failing step's message", () => {
    const html = readFileSync(join(dir, "report/scenarios.html"), "utf8");
    const failing = html.slice(html.indexOf('<article id="s-'), html.length).split("</article>")
      .find((article) => article.includes("a failing doc scenario")) ?? "";
    expect(failing).toMatch(/<b>When<\/b> exec runs "echo hi"/);
    expect(failing).toMatch(/<li class="failed"><b>Then<\/b> the text is "bye"<pre class="error">/);
    expect(html).toContain('<span class="v v-not-applicable">not applicable (capability pty missing)</span> a pty scenario the adapter cannot run');
  });

  it("reports the kit's own scenarios that the run did not load as not run", () => {
    const kitScenarios = readMatrix().rows.flatMap((candidate) => candidate.scenarios)
      .filter((link) => link.uri.startsWith("features/"));
    expect(kitScenarios.length).toBeGreaterThan(0);
    expect(new Set(kitScenarios.map((link) => link.status))).toEqual(new Set(["not run"]));
  });

  it("can be rewritten from the same messages.ndjson", () => {
    mkdirSync(join(dir, "again"));
    copyFileSync(join(dir, "report/messages.ndjson"), join(dir, "again/messages.ndjson"));
    const rules = [rule("SET-01", "doc")];
    const { matrix, markdownPath } = writeComplianceReport(join(dir, "again"), { cwd: process.cwd(), rules, now: new Date(0) });
    expect(readFileSync(markdownPath, "utf8")).toContain("Generated 1970-01-01T00:00:00.000Z · all scenarios selected");
    expect(matrix.rows).toHaveLength(1);
    expect(matrix.run).toEqual({ passedOnlyOnRetry: 0, edition: "newest", generatedAt: "1970-01-01T00:00:00.000Z" });
  });

  it("has a step vocabulary that matches the appendix of INTERPRETING.md", () => {
    const envelopes = parseMessageStream(readFileSync(join(dir, "report/messages.ndjson"), "utf8"));
    const doc = readFileSync(new URL("../../conformance/INTERPRETING.md", import.meta.url), "utf8");
    const vocabulary = renderStepVocabulary(stepVocabularyFromMessages(envelopes));
    expect(doc, "regenerate with: npx tsx conformance/report/step-vocabulary.ts").toContain(vocabulary);
  });
});
