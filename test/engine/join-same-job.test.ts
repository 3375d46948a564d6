// A retried exec that joined the running job (join-same-job.ts, issue 34): it waits on that job as its own call would
// have, and its text says that it is the same job.
import { afterEach, describe, expect, it } from "vitest";
import { ctx, disposeEngines, newEngine, sleep, textOf } from "../reliability/helpers.js";
import { markersRunning, probeCommand } from "./helpers/marked-jobs.js";

afterEach(disposeEngines);

describe("joinSameJob", () => {
  it("a retried foreground call waits on the same job and returns its completed result", async () => {
    const engine = newEngine({ dedupeWindowMs: 10_000 });
    const { probe, command } = probeCommand(1.5);
    const first = engine.exec({ command }, ctx);
    await sleep(500);
    expect(markersRunning(probe)).toHaveLength(1);
    const second = engine.exec({ command }, ctx);
    await sleep(300);
    expect(markersRunning(probe)).toHaveLength(1);
    const [a, b] = await Promise.all([first, second]);
    expect(a.details).toMatchObject({ status: "completed", exitCode: 0 });
    expect(b.details).toMatchObject({ status: "completed", exitCode: 0 });
    expect(textOf(a)).toBe(`${probe} done`);
    expect(textOf(b)).toMatch(/^Same job already started (0|1) s ago \(session [^)]+\): no second process was started\.\n\n/);
    expect(textOf(b).endsWith(`${probe} done`)).toBe(true);
  });


  it("a retried background call returns the job's running result at once, with the same note", async () => {
    const engine = newEngine({ dedupeWindowMs: 10_000 });
    const { probe, command } = probeCommand(30);
    const first = await engine.exec({ command, background: true }, ctx);
    const second = await engine.exec({ command, background: true }, ctx);
    expect(second.details).toMatchObject({ status: "running", sessionId: first.details["sessionId"] });
    expect(textOf(second)).toMatch(/^Same job already started 0 s ago \(session [^)]+\): no second process was started\.\n\nCommand still running/);
    expect(markersRunning(probe)).toHaveLength(1);
    await engine.process({ action: "kill", sessionId: String(first.details["sessionId"]) }, ctx);
  });
});
