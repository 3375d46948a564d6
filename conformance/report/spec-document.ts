// SPEC.md in the reports: the full text of each rule (for documentation.html) and spec.html, the specification as
// one standalone page in which every rule has an anchor (`spec.html#POLL-03`) that the rule rows link to.
import { escapeHtml, inlineMarkdown } from "./html-text.js";

const RULE_ITEM = /^- \*\*([A-Z]+-\d+[a-z]?)\*\* \[(doc|legacy-doc|upstream|reference)\] /;

/** The SPEC text of every rule: its bullet, continuation lines joined, without the id and profile. */
export function readRuleTexts(markdown: string): Map<string, string> {
  const texts = new Map<string, string>();
  const lines = markdown.split("\n");
  lines.forEach((line, index) => {
    const match = RULE_ITEM.exec(line);
    if (!match?.[1]) return;
    const parts = [line.slice(match[0].length)];
    for (let next = index + 1; next < lines.length && /^ {2,}\S/.test(lines[next] ?? ""); next += 1) parts.push((lines[next] ?? "").trim());
    texts.set(match[1], parts.join(" "));
  });
  return texts;
}

/** The anchor of a rule in spec.html. */
export const specLink = (ruleId: string): string => `spec.html#${ruleId}`;

const STYLE = `
body { font: 15px/1.55 system-ui, sans-serif; margin: 2rem auto; max-width: 960px; padding: 0 1rem; color: #1f2328; }
h1, h2, h3, h4 { line-height: 1.25; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; }
code { background: #f6f8fa; padding: 0 .2rem; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: #f6f8fa; padding: .75rem; overflow-x: auto; } pre code { padding: 0; }
table { border-collapse: collapse; display: block; overflow-x: auto; } th, td { border: 1px solid #d0d7de; padding: .3rem .5rem; vertical-align: top; }
li { margin: .2rem 0; } li.rule:target { background: #fff8c5; outline: 2px solid #d4a72c; }
li.rule > a.id { font-weight: 600; text-decoration: none; }
@media (max-width: 640px) { body { margin: 1rem auto; font-size: 14px; } ul { padding-left: 1.1rem; } }`;

/** spec.html: headings, paragraphs, lists, tables and code blocks of SPEC.md; each rule is `<li id="RULE-ID">`. */
export function renderSpecHtml(markdown: string): string {
  const html: string[] = [];
  const lines = markdown.split("\n");
  let list: string[] | undefined;
  const closeList = (): void => {
    if (list) html.push(`<ul>\n${list.join("\n")}\n</ul>`);
    list = undefined;
  };
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (/^ {2,}\S/.test(line) && list) {
      list[list.length - 1] = list[list.length - 1]!.replace(/<\/li>$/, ` ${inlineMarkdown(line.trim())}</li>`);
      continue;
    }
    if (!line.startsWith("- ")) closeList();
    if (line.trim() === "" || /^-{3,}$/.test(line.trim())) continue;
    const heading = /^(#{1,4}) (.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const text = heading[2]!;
      html.push(`<h${level} id="${headingId(text)}">${inlineMarkdown(text)}</h${level}>`);
    } else if (line.startsWith("```")) {
      const code: string[] = [];
      for (index += 1; index < lines.length && !(lines[index] ?? "").startsWith("```"); index += 1) code.push(lines[index] ?? "");
      html.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
    } else if (line.startsWith("|")) {
      const rows: string[][] = [];
      for (; index < lines.length && (lines[index] ?? "").startsWith("|"); index += 1) rows.push(tableCells(lines[index] ?? ""));
      index -= 1;
      const [head = [], , ...body] = rows;
      html.push(`<table><thead><tr>${head.map((text) => `<th>${inlineMarkdown(text)}</th>`).join("")}</tr></thead><tbody>\n`
        + `${body.map((row) => `<tr>${row.map((text) => `<td>${inlineMarkdown(text)}</td>`).join("")}</tr>`).join("\n")}\n</tbody></table>`);
    } else if (line.startsWith("- ")) {
      list ??= [];
      const rule = RULE_ITEM.exec(line);
      list.push(rule?.[1]
        ? `<li class="rule" id="${rule[1]}"><a class="id" href="#${rule[1]}">${rule[1]}</a> [${rule[2]}] ${inlineMarkdown(line.slice(rule[0].length))}</li>`
        : `<li>${inlineMarkdown(line.slice(2))}</li>`);
    } else {
      const paragraph = [line.trim()];
      while (index + 1 < lines.length && isParagraphLine(lines[index + 1] ?? "")) paragraph.push((lines[(index += 1)] ?? "").trim());
      html.push(`<p>${inlineMarkdown(paragraph.join(" "))}</p>`);
    }
  }
  closeList();
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Specification (SPEC.md)</title>
<style>${STYLE}</style>
</head>
<body>
${html.join("\n")}
</body>
</html>
`;
}

function isParagraphLine(line: string): boolean {
  return line.trim() !== "" && !/^(#|- |\||```|-{3,}$)/.test(line);
}

function tableCells(line: string): string[] {
  return line.trim().replace(/^\||\|$/g, "").split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

/** `## 7. \`process\` actions` → `7-process-actions`. */
function headingId(text: string): string {
  return text.toLowerCase().replace(/[`*]/g, "").replace(/[^a-z0-9§]+/g, "-").replace(/^-|-$/g, "");
}
