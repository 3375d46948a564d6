// The sandbox's start gate: graceful signals and the spawn call wait until the supervisor runs the shell.
import { describe, expect, it } from "vitest";
import { createStartGate } from "../../src/executors/sandbox/start-gate.js";

const tick = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("the sandbox's start gate", () => {
  it("holds an action until the shell has started, then runs it once", async () => {
    let started = false;
    const gate = createStartGate(() => started);
    const ran: string[] = [];
    gate.run(() => ran.push("SIGTERM"));
    await tick();
    expect(ran).toEqual([]);
    started = true;
    await tick();
    expect(ran).toEqual(["SIGTERM"]);
    gate.run(() => ran.push("now"));
    expect(ran).toEqual(["SIGTERM", "now"]);
    gate.close();
  });

  it("settles the spawn call only once the shell has started, so its start is not counted in the command's time", async () => {
    let started = false;
    const gate = createStartGate(() => started);
    let settled = false;
    void gate.settled().then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    started = true;
    await tick();
    expect(settled).toBe(true);
    gate.close();
  });

  it("settles the spawn call and drops held actions when the sandbox ends before the shell started", async () => {
    const gate = createStartGate(() => false);
    const ran: string[] = [];
    gate.run(() => ran.push("SIGTERM"));
    const settled = gate.settled();
    gate.close();
    await settled;
    await tick();
    expect(ran).toEqual([]);
  });
});
