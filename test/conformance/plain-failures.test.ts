// Plain-spoken failures (issue 23 item 6): mismatches name their keys, --paths resolves or says where it looked, a
// selection of no scenario is an error, and an implementation that dies shows its last stdout and stderr lines.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StdioConnection } from "../../conformance/adapters/stdio-connection.js";
import { resolveFeaturePath } from "../../conformance/cli.js";
import { assertContains, describeMismatches } from "../../step-definitions/support/text.js";

const ROOT = new URL("../..", import.meta.url).pathname;

function runKit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["conformance/bin.mjs", ...args], { cwd: ROOT, timeout: 120_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? (error as { code?: number }).code ?? 1 : 0, stderr });
    });
  });
}

describe("a details mismatch", () => {
  it("names each differing key with its expected and actual value", () => {
    expect(describeMismatches({ status: "failed", exitCode: 0, nested: { a: 1 } }, { status: "completed", exitCode: 0, nested: { a: 2 }, gone: true }))
      .toEqual(["status: expected \"completed\", actual \"failed\"", "nested.a: expected 2, actual 1", "gone: expected true, actual absent"]);
    expect(describeMismatches({ status: "completed" }, { status: "completed" })).toEqual([]);
    expect(() => assertContains({ status: "failed" }, { status: "completed" }, "details"))
      .toThrow(/details differs from the expected fields:\n {2}status: expected "completed", actual "failed"\ndetails: \{"status":"failed"\}/);
  });
});

describe("--paths", () => {
  it("accepts a path relative to the current directory, to the kit's folder or to its features", () => {
    const expected = join(ROOT, "features/pty.feature");
    expect(resolveFeaturePath("pty.feature")).toBe(expected);
    expect(resolveFeaturePath("features/pty.feature:10")).toBe(`${expected}:10`);
  });

  it("names the folders it looked in for a path that is nowhere", () => {
    expect(() => resolveFeaturePath("features/no_such.feature"))
      .toThrow(/--paths features\/no_such\.feature: no such file relative to the current directory .*, to the kit's folder .* or to its features/);
  });

  it("makes the kit exit non-zero for a wrong path and for a selection of no scenario", async () => {
    const wrong = await runKit(["--paths", "features/no_such.feature"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("no such file");
    const empty = await runKit(["--paths", "pty.feature", "--tags", "@NO-SUCH-TAG"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/No scenario selected: the paths ".*features\/pty\.feature" .* with the tag expression "\(@NO-SUCH-TAG\)" match no scenario/);
  }, 120_000);
});

describe("an implementation that dies", () => {
  it("is reported with its last stdout lines, the unfinished one included, and its stderr", async () => {
    const connection = new StdioConnection({
      command: "printf 'half a li'; echo 'shim: python3 not found' >&2; exit 0",
      cwd: ROOT, env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" }, timeoutMs: 10_000,
    });
    const error = await connection.request("liveSessionIds", {}).then(() => undefined, (failure: Error) => failure);
    expect(error?.message).toMatch(/exited with code 0/);
    expect(error?.message).toContain("last lines of the implementation's stdout (the last line has no line feed: it was never finished)");
    expect(error?.message).toContain("half a li");
    expect(error?.message).toContain("shim: python3 not found");
    connection.killGroup();
  });
});
