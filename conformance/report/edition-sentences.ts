// Splits one edition of the documentation page (docs/editions/) into blocks and sentences: the units that
// conformance/catalog/documentation-map.json maps to rules, and that documentation.html shows with a verdict each.
// The editions are plain text or Markdown; the split only needs to be stable, so that the map's sentences can be
// checked against the files.

export type BlockKind = "heading" | "paragraph" | "item" | "row" | "code" | "quote";

export interface EditionBlock {
  kind: BlockKind;
  /** The block's sentences in order; a heading, a table row and a code example are one sentence each. */
  sentences: string[];
}

/** A bullet: `•`, `*` or `-` and a space, after optional indentation. */
const BULLET = /^\s*(?:•|\*|-)\s+/;
const FENCE = /^\s*```/;
const TABLE_RULE = /^\|[\s:|-]+\|$/;
/** An unfenced JSON example such as `{ "tool": "exec", … }`. */
const JSON_EXAMPLE = /^\s*\{\s*"/;
/** A line that ends without a sentence mark and is short is a heading (the plain-text editions lost their `#`). */
const HEADING_MAX_CHARS = 60;
const SENTENCE_END = /[.!?。！？:：)）]$/;

export function splitEdition(text: string): EditionBlock[] {
  const blocks: EditionBlock[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let tableHeader = true;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const trimmed = normalizeSpace(line);
    if (!line.trim().startsWith("|")) tableHeader = true;
    if (trimmed === "") continue;
    if (FENCE.test(line)) {
      const code: string[] = [];
      for (index += 1; index < lines.length && !FENCE.test(lines[index] ?? ""); index += 1) code.push(lines[index] ?? "");
      blocks.push({ kind: "code", sentences: [code.join("\n").trim()] });
    } else if (JSON_EXAMPLE.test(line)) {
      blocks.push({ kind: "code", sentences: [line.trim()] });
    } else if (trimmed.startsWith("|")) {
      if (TABLE_RULE.test(trimmed)) continue;
      const cells = trimmed.slice(1, trimmed.endsWith("|") ? -1 : undefined).split("|").map(normalizeSpace);
      blocks.push({ kind: tableHeader ? "heading" : "row", sentences: [cells.join(" | ")] });
      tableHeader = false;
    } else if (trimmed.startsWith(">")) {
      blocks.push({ kind: "quote", sentences: splitSentences(trimmed.replace(/^(?:>\s*)+/, "").replace(/^#+\s*/, "")) });
    } else if (trimmed.startsWith("#")) {
      blocks.push({ kind: "heading", sentences: [trimmed.replace(/^#+\s*/, "")] });
    } else if (BULLET.test(line)) {
      blocks.push({ kind: "item", sentences: splitSentences(normalizeSpace(line.replace(BULLET, ""))) });
    } else if (isPlainHeading(trimmed)) {
      blocks.push({ kind: "heading", sentences: [trimmed.replace(/¶$/, "")] });
    } else {
      blocks.push({ kind: "paragraph", sentences: splitSentences(trimmed) });
    }
  }
  return blocks.filter((block) => block.sentences.length > 0);
}

/** Every sentence of an edition, in order. */
export function editionSentences(text: string): string[] {
  return splitEdition(text).flatMap((block) => block.sentences);
}

function isPlainHeading(line: string): boolean {
  return line.endsWith("¶") || (line.length <= HEADING_MAX_CHARS && !SENTENCE_END.test(line));
}

/**
 * Splits after `。！？` and after `.!?` followed by a space; a period inside a word (`tools.exec.cleanupMs`) or
 * followed by a comma (`hal.,`) does not end a sentence.
 */
export function splitSentences(text: string): string[] {
  return text.split(/(?<=[。！？])|(?<=[.!?])\s+(?=\S)/).map(normalizeSpace).filter((sentence) => sentence !== "");
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
