// Smaller work messages to cucumber's workers, with the same results. With workers, cucumber's coordinator sends
// each scenario to a worker as one IPC message that carries the scenario's whole gherkin document: the AST of its
// feature file, 20 to 115 KB of JSON here, serialized by the kit and parsed by the worker once per scenario (88 MB
// for a run of all 1209 scenarios). A worker reads the document for one thing only: the hook parameter
// `gherkinDocument`. Each scenario now travels with its feature's document cut down to that scenario, the
// backgrounds it runs after and the rule that holds it; the feature's own fields (name, tags, description, language)
// and the document's uri stay. The kit's own hooks read none of it; formatters and reports read the full documents,
// which the coordinator keeps.
import { createRequire } from "node:module";
import type { GherkinDocument, Pickle } from "@cucumber/messages";

type FeatureChild = NonNullable<GherkinDocument["feature"]>["children"][number];
interface AssembledTestCase { gherkinDocument: GherkinDocument; pickle: Pickle; testCase: unknown }
interface RuntimeAdapter { run(assembledTestCases: readonly AssembledTestCase[]): Promise<boolean> }

/** The document as a hook of `pickle`'s scenario sees it: its feature with only the children that lead to the scenario. */
export function documentForScenario(document: GherkinDocument, pickle: Pickle): GherkinDocument {
  const { feature } = document;
  if (!feature) return document;
  const scenarioIds = new Set(pickle.astNodeIds);
  const leadingTo = (children: readonly FeatureChild[]): FeatureChild[] => {
    const kept = children.flatMap((child): FeatureChild[] => {
      if (child.background) return [child];
      if (child.scenario) return scenarioIds.has(child.scenario.id) ? [child] : [];
      if (child.rule) {
        const inner = leadingTo(child.rule.children as FeatureChild[]);
        return inner.length > 0 ? [{ rule: { ...child.rule, children: inner } }] : [];
      }
      return [];
    });
    return kept.some((child) => child.scenario || child.rule) ? kept : [];
  };
  return { ...document, comments: [], feature: { ...feature, children: leadingTo(feature.children) } };
}

let installed = false;

/**
 * Makes cucumber's child-process runtime send each scenario with documentForScenario's document, when that runtime
 * has the shape this module knows (that of the pinned cucumber version); else the messages stay as they were.
 * Returns whether it is in place.
 */
export function useLeanWorkMessages(): boolean {
  if (installed) return true;
  const fromCucumber = createRequire(createRequire(import.meta.url).resolve("@cucumber/cucumber"));
  let adapter: { prototype: RuntimeAdapter } | undefined;
  try {
    adapter = (fromCucumber("./runtime/parallel/adapter.js") as { ChildProcessAdapter?: { prototype: RuntimeAdapter } }).ChildProcessAdapter;
  } catch {
    return false; // another layout: another cucumber version
  }
  if (typeof adapter?.prototype.run !== "function") return false;
  const original = adapter.prototype.run;
  adapter.prototype.run = function run(this: RuntimeAdapter, assembledTestCases: readonly AssembledTestCase[]): Promise<boolean> {
    const lean = assembledTestCases.map((item) => ({ ...item, gherkinDocument: documentForScenario(item.gherkinDocument, item.pickle) }));
    return original.call(this, lean);
  };
  installed = true;
  return true;
}
