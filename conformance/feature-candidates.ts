// Which feature files can hold a scenario that a tag expression selects, read from their tag lines alone. cucumber's
// loadSources parses every file it is given (about 0.3 s of CPU for all the features), and the report parses again
// every file that no scenario was selected from: for a run narrowed by tags (a rule's scenarios, a fault's), handing
// loadSources only the candidate files spares one full parse (issue 36).
import { parse as parseTagExpression } from "@cucumber/tag-expressions";
import { readFileSync } from "node:fs";

/** A keyword line that takes the tag lines above it; Background takes none. */
const TAGGED_KEYWORD = /^(Feature|Rule|Scenario Outline|Scenario Template|Scenario|Example|Examples|Scenarios|Background):/;
const DOCSTRING_FENCE = /^("""|```)/;

/**
 * The tag sets of the scenarios a feature text can make, as cucumber gives them to a tag expression: the feature's,
 * the rule's, the scenario's and each of its examples' tags together. An outline also counts with its own tags alone,
 * which can only add files, never leave one out.
 */
export function scenarioTagSets(text: string): string[][] {
  const sets: string[][] = [];
  let pending: string[] = [];
  let feature: string[] = [];
  let rule: string[] = [];
  let scenario: string[] = [];
  let fence: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (fence !== undefined) {
      if (line.startsWith(fence)) fence = undefined; // a docstring holds text, never tags or keywords
      continue;
    }
    const opening = DOCSTRING_FENCE.exec(line);
    if (opening) {
      fence = opening[1];
      continue;
    }
    if (line === "" || line.startsWith("#")) continue; // comments and blank lines may stand between tags and keyword
    if (line.startsWith("@")) {
      pending.push(...(line.split(/\s#/)[0] ?? "").split(/\s+/).filter((tag) => tag.startsWith("@")));
      continue;
    }
    const keyword = TAGGED_KEYWORD.exec(line)?.[1];
    if (keyword === "Feature") [feature, rule] = [pending, []];
    else if (keyword === "Rule") rule = pending;
    else if (keyword === "Examples" || keyword === "Scenarios") sets.push([...feature, ...rule, ...scenario, ...pending]);
    else if (keyword !== undefined && keyword !== "Background") {
      scenario = pending;
      sets.push([...feature, ...rule, ...scenario]);
    }
    pending = [];
  }
  return sets;
}

/** The files of `paths` where some scenario's tags satisfy `expression`, in their order. */
export function candidateFeatureFiles(paths: readonly string[], expression: string): string[] {
  const selects = parseTagExpression(expression);
  return paths.filter((path) => scenarioTagSets(readFileSync(path, "utf8")).some((tags) => selects.evaluate(tags)));
}
