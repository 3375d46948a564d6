// Reads every scenario of the feature files with its tags (Rule and Feature tags included), via Gherkin pickles.
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from "@cucumber/gherkin";
import { IdGenerator } from "@cucumber/messages";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export interface ScenarioTags {
  uri: string;
  name: string;
  tags: string[];
}

export function readScenarioTags(featuresDir: string): ScenarioTags[] {
  const scenarios: ScenarioTags[] = [];
  for (const file of readdirSync(featuresDir, { recursive: true }) as string[]) {
    if (!file.endsWith(".feature")) continue;
    const uri = join(featuresDir, file);
    const newId = IdGenerator.uuid();
    const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
    const document = parser.parse(readFileSync(uri, "utf8"));
    for (const pickle of compile(document, uri, newId)) {
      scenarios.push({ uri: file, name: pickle.name, tags: pickle.tags.map((tag) => tag.name) });
    }
  }
  return scenarios;
}

/** Rule tags such as `@EXEC-12`. */
export const RULE_TAG = /^@([A-Z]+-\d+[a-z]?)$/;
