// Verdict badges for the HTML reports: a coloured pill with the verdict as text and a CSS-drawn dot, so they
// render with any font (the emoji marks of compliance.md show as empty boxes on a machine without an emoji font).
import type { RuleVerdict } from "./compliance-matrix.js";

export const BADGE_CSS = `
.v { display: inline-block; white-space: nowrap; padding: 0 .5rem; border: 1px solid; border-radius: 999px;
  font-size: 12px; font-weight: 600; line-height: 1.55; }
.v::before { content: ""; display: inline-block; width: .5em; height: .5em; margin-right: .35em; border-radius: 50%;
  background: currentColor; vertical-align: .05em; }
.v-passed { background: #dafbe1; color: #116329; border-color: #4ac26b; }
.v-failed { background: #ffebe9; color: #a40e26; border-color: #ff8182; }
.v-diverges { background: #fff1e5; color: #953800; border-color: #fb8f44; }
.v-skipped { background: #fff8c5; color: #7d4e00; border-color: #d4a72c; }
.v-not-applicable, .v-not-run, .v-no-scenario, .v-not-in-this-edition { background: #eaeef2; color: #424a53; border-color: #afb8c1; }
.v-not-run::before, .v-no-scenario::before, .v-not-in-this-edition::before { background: transparent; box-shadow: inset 0 0 0 1.5px currentColor; }`;

/** Bar colours of the verdicts, matching the badges. */
export const VERDICT_COLORS: Record<RuleVerdict, string> = {
  passed: "#2da44e", failed: "#cf222e", diverges: "#fb8f44", skipped: "#d4a72c", "not applicable": "#8c959f", "not run": "#d0d7de", "no scenario": "#eaeef2",
  "not in this edition": "#f6f8fa",
};

export const verdictClass = (verdict: RuleVerdict): string => `v v-${verdict.replace(/ /g, "-")}`;

/** `label` is already escaped HTML text. */
export function verdictBadge(verdict: RuleVerdict, label: string = verdict): string {
  return `<span class="${verdictClass(verdict)}">${label}</span>`;
}
