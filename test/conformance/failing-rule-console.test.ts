// A kit run that fails one rule (issue 37 item 4): the console names the rule's ID and title, the failed check's
// expected and received values shortened around the first difference, rules not selected apart from failed ones,
// and the path of every report it wrote; scenarios.html counts the scenarios that ran.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describePatternMismatch, describeTextMismatch } from "../../step-definitions/support/text.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const KIT_TIMEOUT_MS = 120_000;

let report: string;
let run: { code: number | null; stdout: string };
beforeAll(async () => {
  report = mkdtempSync(join(tmpdir(), "kit-failing-rule-"));
  // log-default-100 gives `log` without a window the last 100 lines, not 200: it breaks LOG-03.
  const args = ["conformance/bin.mjs", "--paths", "features/log.feature:74", "--command", "node conformance/fixtures/faulty/log-default-100.mjs", "--report", report];
  run = await new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: KIT_TIMEOUT_MS, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout) => {
      resolve({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout });
    });
  });
}, KIT_TIMEOUT_MS);
afterAll(() => {
  if (report) rmSync(report, { recursive: true, force: true });
});

describe("a kit run that fails one rule", () => {
  it("exits 1 and names the failed rule's ID and title, and its scenario, in the progress and at the end", () => {
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("failed: features/log.feature: a log of 200 lines or fewer shows every line (LOG-03)\n");
    expect(run.stdout).toContain("1 rule not met:\nFailed: LOG-03 With neither `offset` nor `limit`, `log` returns the last 200 lines and, "
      + "when there are more lines, a paging hint (semantic: the text contains `200` and the total line count).\n"
      + "  scenario features/log.feature:74: a log of 200 lines or fewer shows every line\n");
  });

  it("prints the expected and the received text, the received one shortened around the first difference", () => {
    expect(run.stdout).toContain('Error: text check "starts" failed (first difference at character 0 of the text).\n'
      + '         expected: "1\\n2\\n3\\n"\n'
      + '         received: "51\\n52\\n53\\n54\\n55\\n56\\n57\\n58\\n59\\n60\\n61\\n62\\n63\\n64\\n65\\n66\\n67\\n68\\n69\\n70\\n71\\n72\\n73\\n74\\n75\\n76\\n77"… (350 chars)\n');
  });

  it("counts the rules that were not selected apart from the failed one", () => {
    expect(run.stdout).toMatch(/^Chapter +Rules +passed +failed +diverges +skipped +not applicable +not selected +no scenario$/m);
    expect(run.stdout).toMatch(/^All rules +305 +0 +1 +0 +0 +0 +304 +0$/m);
    expect(run.stdout).not.toContain("not run");
  });

  it("prints the path of every report it wrote", () => {
    const files = ["cucumber.html", "junit.xml", "messages.ndjson", "compliance.md", "compliance.html", "compliance.json", "spec.html", "scenarios.html", "documentation.html"];
    expect(run.stdout).toContain(`Conformance report written to ${report}:\n${files.map((file) => `  ${join(report, file)}\n`).join("")}`);
    for (const file of files) expect(readFileSync(join(report, file), "utf8").length).toBeGreaterThan(0);
  });

  it("writes every edition into documentation.html, also when the kit runs from the build in dist/", () => {
    const page = readFileSync(join(report, "documentation.html"), "utf8");
    expect(page).not.toContain("The page is missing from this kit.");
    expect(page).toContain('<section class="edition" id="sv" lang="sv" role="tabpanel">');
  });

  it("counts in scenarios.html the scenarios that ran", () => {
    expect(readFileSync(join(report, "scenarios.html"), "utf8")).toMatch(/<p>1 scenarios ran \(of \d+ in the kit; \d+ not selected\), each with/);
  });
});

describe("a failed text check", () => {
  it("shows both texts around the first difference, with the length of a text it cuts", () => {
    const actual = `${"x\n".repeat(100)}y\n${"x\n".repeat(100)}`;
    expect(describeTextMismatch("exactly", "x\n".repeat(201), actual)).toBe('text check "exactly" failed (first difference at character 200 of the text).\n'
      + `  expected: …${JSON.stringify("x\n".repeat(60))}… (402 chars)\n`
      + `  received: …${JSON.stringify(`${"x\n".repeat(20)}y\n${"x\n".repeat(39)}`)}… (402 chars)`);
    expect(describeTextMismatch("ends", "b\nend", "a\nend")).toBe('text check "ends" failed (first difference at character 1 of the text).\n  expected: "b\\nend"\n  received: "a\\nend"');
  });

  it("shows a pattern whole and a long text by its head and its tail", () => {
    expect(describePatternMismatch("^(x\\n){199}x$", "x\n".repeat(100))).toBe("text does not match the pattern.\n  expected: matching /^(x\\n){199}x$/\n"
      + `  received: ${JSON.stringify("x\n".repeat(20))}…${JSON.stringify("x\n".repeat(40))} (200 chars, 101 lines)`);
  });
});
