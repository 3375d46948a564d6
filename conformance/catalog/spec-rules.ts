// Reads the rule lines of SPEC.md (`- **PREFIX-NN** [profile] statement`) into catalog entries.

/**
 * From the least to the most specific. `reference` is the reference implementation's own decision, where neither
 * the documentation nor upstream decides or where it deliberately differs from upstream (docs/UPSTREAM.md); SPEC
 * rules are doc, legacy-doc or upstream, and a scenario of profile `reference` may refine a rule of any of them.
 */
export type Profile = "doc" | "legacy-doc" | "upstream" | "reference";
export const PROFILES: readonly Profile[] = ["doc", "legacy-doc", "upstream", "reference"];

export interface RuleEntry {
  id: string;
  prefix: string;
  profile: Profile;
  /** The SPEC chapter, e.g. "7. `process` actions", used to group the compliance matrix. */
  chapter: string;
  /** The SPEC section heading the rule stands under, e.g. "7.3 `poll`". */
  section: string;
  /** The first sentence of the rule, for one-line listings. */
  summary: string;
}

const RULE_LINE = /^- \*\*([A-Z]+)-(\d+[a-z]?)\*\* \[(doc|legacy-doc|upstream|reference)\] (.*)$/;
const CHAPTER = /^## (\d+\. .*)$/;
const SECTION = /^### (\d+\.\d+ .*)$/;

export function parseSpecRules(markdown: string): RuleEntry[] {
  const rules: RuleEntry[] = [];
  let chapter = "";
  let section = "";
  for (const line of markdown.split("\n")) {
    const chapterHeading = CHAPTER.exec(line)?.[1];
    if (chapterHeading) section = chapter = chapterHeading.trim();
    const sectionHeading = SECTION.exec(line)?.[1];
    if (sectionHeading) section = sectionHeading.trim();
    const match = RULE_LINE.exec(line);
    if (!match) continue;
    const [, prefix = "", number = "", profile = "doc", statement = ""] = match;
    rules.push({ id: `${prefix}-${number}`, prefix, profile: profile as Profile, chapter, section, summary: firstSentence(statement) });
  }
  return rules;
}

/** The statement up to its first full stop outside code spans, at most SUMMARY_MAX_CHARS, never cut inside a code span. */
export function firstSentence(statement: string): string {
  let sentence = "";
  for (const part of statement.split(/(`[^`]*`)/)) {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
      sentence += part;
      continue;
    }
    const end = part.search(/(?<!\be\.g|\bi\.e)\.(\s|$)/);
    if (end !== -1) return shorten(sentence + part.slice(0, end + 1));
    sentence += part;
  }
  return shorten(sentence);
}

const SUMMARY_MAX_CHARS = 200;

/** Cuts a long sentence at a space outside code spans and marks the cut with `…`. */
function shorten(sentence: string): string {
  if (sentence.length <= SUMMARY_MAX_CHARS) return sentence;
  let kept = "";
  for (const token of sentence.split(/(`[^`]*`|\s+)/).filter((part) => part !== "")) {
    if ((kept + token).trimEnd().length > SUMMARY_MAX_CHARS - 1) break;
    kept += token;
  }
  return `${kept.trimEnd() || sentence.slice(0, SUMMARY_MAX_CHARS - 1)}…`;
}
