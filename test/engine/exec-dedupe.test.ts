// Retry dedupe (issue 34, src/engine/exec/exec-dedupe.ts and join-same-job.ts): with dedupeWindowMs, an identical exec
// of the same scope started within the window joins the running job; one process, checked in /proc by its marker.
import { afterEach, describe, expect, it } from "vitest";
import { ctx, disposeEngines, newEngine, sessionIdOf, sleep, textOf, waitUntil } from "../reliability/helpers.js";
import { markersRunning, probeCommand } from "./helpers/marked-jobs.js";

afterEach(disposeEngines);


describe("retry dedupe (dedupeWindowMs)", () => {
  it("two identical background execs 1 s apart start one process, and the second says it is the same job", async () => {
    const engine = newEngine({ dedupeWindowMs: 10_000 });
    const { probe, command } = probeCommand(30);
    const first = await engine.exec({ command, background: true }, ctx);
    await sleep(1_000);
    const second = await engine.exec({ command, background: true }, ctx);
    expect(sessionIdOf(second)).toBe(sessionIdOf(first));
    expect(textOf(second)).toMatch(new RegExp(`^Same job already started 1 s ago \\(session ${sessionIdOf(first)}\\): no second process was started\\.\\n\\nCommand still running`));
    expect(second.details).toMatchObject({ status: "running", sessionId: sessionIdOf(first), pid: first.details.pid });
    expect(markersRunning(probe)).toHaveLength(1);
    expect(engine.liveSessionIds()).toHaveLength(1);
  });

  it("without the option (0, the default) the same two calls start two processes", async () => {
    const engine = newEngine();
    const { probe, command } = probeCommand(30);
    const first = await engine.exec({ command, background: true }, ctx);
    const second = await engine.exec({ command, background: true }, ctx);
    expect(sessionIdOf(second)).not.toBe(sessionIdOf(first));
    expect(textOf(second)).not.toContain("Same job");
    expect(markersRunning(probe)).toHaveLength(2);
  });

  it.each([
    ["another env", { env: { A: "1" } }],
    ["another workdir", { workdir: "/" }],
    ["pty", { pty: true }],
  ])("a call with %s is another job", async (_name, change) => {
    const engine = newEngine({ dedupeWindowMs: 10_000 });
    const { probe, command } = probeCommand(30);
    const first = await engine.exec({ command, background: true }, ctx);
    const second = await engine.exec({ command, background: true, ...change }, ctx);
    expect(sessionIdOf(second)).not.toBe(sessionIdOf(first));
    expect(await waitUntil(() => markersRunning(probe).length === 2, 5_000)).toBe(true); // a terminal starts later
  });

  it("a call in another scope, after the window or after the first ended is another job", async () => {
    const engine = newEngine({ dedupeWindowMs: 400 });
    const { command } = probeCommand(30);
    const first = sessionIdOf(await engine.exec({ command, background: true }, ctx));
    const otherScope = sessionIdOf(await engine.exec({ command, background: true }, { scopeKey: "elsewhere" }));
    expect(otherScope).not.toBe(first);
    await sleep(600);
    expect(sessionIdOf(await engine.exec({ command, background: true }, ctx))).not.toBe(first);
    const quick = await engine.exec({ command: "echo once" }, ctx);
    const again = await engine.exec({ command: "echo once" }, ctx);
    expect(textOf(quick)).toBe("once");
    expect(textOf(again)).toBe("once");
  });
});
