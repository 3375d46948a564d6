// The session marker's /proc lookup: exact markers only, and one scan for every marker signalled in the same
// synchronous run (ending 200 sessions at once used to read every process's environment 200 times).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_MARKER_VARIABLE, createEngineToken, signalMarkedProcesses } from "../../src/engine/spawn/session-marker.js";

vi.mock("node:fs", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:fs")>();
  return { ...original, readdirSync: vi.fn(original.readdirSync) };
});

const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** A `sleep` carrying `marker`, in a process group of its own (so no leader filter applies). */
async function markedSleeper(marker: string): Promise<ChildProcess> {
  const child = spawn("sleep", ["60"], { detached: true, stdio: "ignore", env: { PATH: process.env["PATH"], [SESSION_MARKER_VARIABLE]: marker } });
  started.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child;
}

const endSignal = (child: ChildProcess): Promise<NodeJS.Signals | null> =>
  new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));

const procScans = (): number => vi.mocked(fs.readdirSync).mock.calls.filter(([path]) => path === "/proc").length;

describe("signalMarkedProcesses", () => {
  it("signals the processes of every marker given in one synchronous run, reading /proc once", async () => {
    const token = createEngineToken();
    const first = await markedSleeper(`${token}-1`);
    const second = await markedSleeper(`${token}-2`);
    const longer = await markedSleeper(`${token}-10`); // not `${token}-1`: markers match exactly
    const ends = [endSignal(first), endSignal(second)];
    const scansBefore = procScans();
    signalMarkedProcesses(`${token}-1`, "SIGTERM", undefined);
    signalMarkedProcesses(`${token}-2`, "SIGTERM", undefined);
    expect(procScans() - scansBefore).toBe(1);
    expect(await Promise.all(ends)).toEqual(["SIGTERM", "SIGTERM"]);
    expect(longer.exitCode).toBeNull();
    expect(longer.signalCode).toBeNull();
  });

  it("reads /proc again after the synchronous run, and then finds processes started since", async () => {
    const token = createEngineToken();
    signalMarkedProcesses(`${token}-1`, "SIGTERM", undefined);
    await Promise.resolve();
    const later = await markedSleeper(`${token}-1`);
    const end = endSignal(later);
    const scansBefore = procScans();
    signalMarkedProcesses(`${token}-1`, "SIGTERM", undefined);
    expect(procScans() - scansBefore).toBe(1);
    expect(await end).toBe("SIGTERM");
  });
});
