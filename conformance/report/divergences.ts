// Known divergences an implementer explains: a JSON object from rule id to a note, e.g.
// {"REG-01": "Sessions are recorded in a state database, see docs/UPSTREAM.md"}. A failed rule with a note is shown
// as "diverges (explained)"; it still blocks its level.
import { readFileSync } from "node:fs";
import type { RuleEntry } from "../catalog/spec-rules.js";

export type Divergences = Readonly<Record<string, string>>;

/** Reads and checks a divergence file; every error names the file and what to fix. */
export function readDivergences(path: string, rules: readonly RuleEntry[]): Divergences {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`--divergences ${path}: cannot read it as JSON (${(error as Error).message}).`);
  }
  return parseDivergences(parsed, rules, path);
}

export function parseDivergences(value: unknown, rules: readonly RuleEntry[], source = "divergences"): Divergences {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${source}: expected an object from rule id to note, e.g. {"REG-01": "why"}.`);
  }
  const known = new Set(rules.map((rule) => rule.id));
  const divergences: Record<string, string> = {};
  for (const [id, note] of Object.entries(value)) {
    if (!known.has(id)) throw new Error(`${source}: "${id}" is not a rule id of the catalog (e.g. "EXEC-07").`);
    if (typeof note !== "string" || note.trim() === "") throw new Error(`${source}: the note of ${id} must be a non-empty string.`);
    divergences[id] = note.trim();
  }
  return divergences;
}
