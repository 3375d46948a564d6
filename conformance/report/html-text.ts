// Text in the HTML reports: escaping, and the few inline Markdown forms that SPEC texts and summaries use.

/** Code spans become `<code>`, `**text**` `<strong>`, `*text*` `<em>`; everything else is escaped. */
export function inlineMarkdown(text: string): string {
  return text.split(/(`[^`]*`)/).map((part, index) => (index % 2 === 1
    ? `<code>${escapeText(part.slice(1, -1))}</code>`
    : escapeText(part).replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>").replace(/\*([^*\s][^*]*)\*/g, "<em>$1</em>"))).join("");
}

/** Escapes text outside attributes: quotes stay as they are (documentation.html holds some 20,000 of them). */
export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
