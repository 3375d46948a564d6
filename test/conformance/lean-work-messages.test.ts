// The kit sends each scenario to a cucumber worker with its feature's document cut down to that scenario
// (conformance/lean-work-messages.ts): what leads to the scenario stays, the feature's other scenarios go.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Envelope, GherkinDocument, Pickle } from "@cucumber/messages";
import { documentForScenario, useLeanWorkMessages } from "../../conformance/lean-work-messages.js";

const fromCucumber = createRequire(createRequire(import.meta.url).resolve("@cucumber/cucumber"));
const gherkin = fromCucumber("@cucumber/gherkin") as typeof import("@cucumber/gherkin");
const messages = fromCucumber("@cucumber/messages") as typeof import("@cucumber/messages");

function parse(text: string, uri: string): { document: GherkinDocument; pickles: Pickle[] } {
  const envelopes: readonly Envelope[] = gherkin.generateMessages(text, uri, messages.SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN, {
    includeGherkinDocument: true, includePickles: true, includeSource: false, newId: messages.IdGenerator.incrementing(),
  });
  const document = envelopes.find((envelope) => envelope.gherkinDocument)?.gherkinDocument;
  if (!document) throw new Error(`no document in ${uri}`);
  return { document, pickles: envelopes.flatMap((envelope) => (envelope.pickle ? [envelope.pickle] : [])) };
}

const FEATURE = `# a comment
@area
Feature: Sessions
  What the feature says.

  Background:
    Given a shell

  Scenario: first
    When one

  Rule: R-1
    Background:
      Given a rule's shell

    Scenario: second
      When two

    Scenario Outline: third <n>
      When <n>
      Examples:
        | n |
        | 3 |

  Rule: R-2
    Scenario: fourth
      When four
`;

/** Scenario names, with their rules, of a document's feature. */
function outline(document: GherkinDocument): string[] {
  return (document.feature?.children ?? []).flatMap((child) => child.background ? ["background"]
    : child.scenario ? [child.scenario.name]
      : child.rule ? [`${child.rule.name}: ${child.rule.children.map((inner) => inner.background ? "background" : inner.scenario?.name).join(", ")}`] : []);
}

describe("the document a worker gets with a scenario", () => {
  const { document, pickles } = parse(FEATURE, "features/sessions.feature");

  it("keeps what leads to the scenario: the feature's fields, its background, the scenario's rule and that rule's background", () => {
    expect(pickles.map((pickle) => outline(documentForScenario(document, pickle)))).toEqual([
      ["background", "first"],
      ["background", "R-1: background, second"],
      ["background", "R-1: background, third <n>"],
      ["background", "R-2: fourth"],
    ]);
    const lean = documentForScenario(document, pickles[1]!);
    expect(lean.uri).toBe("features/sessions.feature");
    expect(lean.comments).toEqual([]);
    expect(lean.feature).toMatchObject({ name: "Sessions", description: document.feature?.description, tags: document.feature?.tags, language: "en" });
    expect(outline(document)).toEqual(["background", "first", "R-1: background, second, third <n>", "R-2: fourth"]); // unchanged
  });

  it("sends a scenario of the largest feature file with a small part of its document", () => {
    const large = parse(readFileSync("features/exec_parameters.feature", "utf8"), "features/exec_parameters.feature");
    const whole = JSON.stringify(large.document).length;
    const sizes = large.pickles.map((pickle) => JSON.stringify(documentForScenario(large.document, pickle)).length);
    expect(whole).toBeGreaterThan(50_000);
    expect(Math.max(...sizes)).toBeLessThan(whole / 10);
  });

  it("is in place for the pinned cucumber version", () => {
    expect(useLeanWorkMessages()).toBe(true);
  });
});

describe("a kit run with workers", () => {
  it("sends each of its scenarios with a document that holds that scenario alone", async () => {
    const work = mkdtempSync(join(tmpdir(), "lean-work-"));
    try {
      const record = join(work, "messages");
      const probe = new URL("./fixtures/record-work-messages.mjs", import.meta.url).pathname;
      const code = await new Promise<number | null>((resolve, reject) => {
        const kit = spawn(process.execPath, ["--import", probe, "conformance/bin.mjs", "--parallel", "2", "--paths", "features/list.feature",
          "--tags", "@LIST-01 or @LIST-02", "--report", join(work, "report")], { env: { ...process.env, RECORD_WORK_MESSAGES: record }, stdio: "ignore" });
        kit.once("error", reject);
        kit.once("exit", resolve);
      });
      expect(code).toBe(0);
      // Two scenarios of list.feature, which holds 29: each message carries its own scenario only.
      const sent = readFileSync(record, "utf8").trim().split("\n").map((line) => line.split(" ").map(Number));
      expect(sent.map(([scenarios]) => scenarios)).toEqual([1, 1]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});

