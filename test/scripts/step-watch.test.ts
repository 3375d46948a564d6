// npm test's steps (scripts/step-watch.mjs): a step past its deadline, or one that exited while processes it started
// still hold its output, is named with those processes and they are ended, so that the run still ends (issue 36).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { runStep } from "../../scripts/step-watch.mjs";
import { killAll, markerSeconds, processesWith, sleepers, waitUntil } from "../executors/helpers.js";

const markers: string[] = [];
function marker(): string {
  const seconds = markerSeconds();
  markers.push(seconds);
  return seconds;
}
afterEach(() => {
  for (const seconds of markers.splice(0)) killAll(processesWith(seconds));
});

it("resolves with the exit status and the output of a step that ends by itself, with no problem", async () => {
  const chunks: string[] = [];
  const result = await runStep("sh", ["-c", "echo out; echo err >&2; exit 3"], {
    deadlineMs: 10_000, onOutput: (chunk, stream) => chunks.push(`${stream}:${chunk.toString().trim()}`),
  });
  expect(result).toEqual({ status: 3, problem: undefined });
  expect(chunks.sort()).toEqual(["stderr:err", "stdout:out"]);
});

it("writes a step's output to its file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "step-watch-"));
  try {
    const result = await runStep("sh", ["-c", "echo out; echo err >&2"], { deadlineMs: 10_000, outputFile: join(dir, "log") });
    expect(result).toEqual({ status: 0, problem: undefined });
    expect(readFileSync(join(dir, "log"), "utf8")).toBe("out\nerr\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const output of ["piped", "to a file"] as const) {
  it(`ends a step past its deadline with its processes, a stopped one among them, and names them (${output})`, async () => {
    const busy = marker();
    const stopped = marker();
    const dir = mkdtempSync(join(tmpdir(), "step-watch-"));
    const started = Date.now();
    try {
      // A child that stops itself stands for a paused engine; the step waits on both for ever.
      const script = `sleep ${busy} & sh -c 'kill -STOP $$; sleep ${stopped}' & wait`;
      const result = await runStep("sh", ["-c", script], {
        // What the continued child starts as the step ends is ended as a holder of the output, after its grace.
        deadlineMs: 2500, outputGraceMs: 500, ...(output === "piped" ? { onOutput: () => {} } : { outputFile: join(dir, "log") }),
      });
      expect(result.status).toBeNull();
      expect(result.problem).toMatch(/^still running after 2\.5 s, ended with its processes:\n\d+ \w sh -c /);
      expect(result.problem).toContain(`sleep ${busy}`);
      expect(result.problem).toMatch(/\n\d+ T sh -c kill -STOP/);
      expect(Date.now() - started).toBeLessThan(10_000);
      // SIGKILL is sent, not yet necessarily delivered, when the step resolves.
      expect(await waitUntil(() => sleepers(busy) === 0 && processesWith(`kill -STOP $$; sleep ${stopped}`).length === 0, 2000)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
}

it("ends what still holds the output of a step that exited, names it, and resolves", async () => {
  const held = marker();
  const started = Date.now();
  // The step lives a moment: what its output is is read from the step itself as it starts.
  const result = await runStep("sh", ["-c", `sleep ${held} & sleep 0.3; exit 0`], { deadlineMs: 60_000, outputGraceMs: 500, onOutput: () => {} });
  expect(result.status).toBe(0);
  expect(result.problem).toMatch(new RegExp(`^exited, but processes it started still held its output after 0\\.5 s, ended:\\n\\d+ \\w sleep ${held.replace(".", "\\.")}$`));
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(await waitUntil(() => sleepers(held) === 0, 2000)).toBe(true);
});
