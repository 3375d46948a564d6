// The deployment test of issue 33: a session host and two agent workers in three processes. Worker A starts a job
// on thread T and is killed; worker B, woken by the job's exit through wakeOnExit, polls it, and its model receives
// the exit event exactly once. Nothing is left running after the host's shutdown.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { testEnv } from "../reliability/helpers.js";
import { TOKEN, processesRunning, startHostProgram, stopAll } from "./helpers.js";

const WORKER = fileURLToPath(new URL("./fixtures/deployment-worker.mjs", import.meta.url));
const workers: ChildProcess[] = [];

afterEach(async () => {
  for (const worker of workers.splice(0)) if (worker.exitCode === null && worker.signalCode === null) worker.kill("SIGKILL");
  await stopAll();
});

function startWorker(args: string[]): { child: ChildProcess; firstLine: Promise<Record<string, unknown>>; exited: Promise<unknown> } {
  const child = spawn(process.execPath, [WORKER, ...args], {
    env: { ...testEnv(), EXEC_PROCESS_HOST_TOKEN: TOKEN }, stdio: ["ignore", "pipe", "pipe"],
  });
  workers.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const firstLine = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      if (stdout.includes("\n")) resolve(JSON.parse(stdout.slice(0, stdout.indexOf("\n"))) as Record<string, unknown>);
    });
    void exited.then(() => reject(new Error(`worker ${args[0]} exited without a result: ${stderr}`)));
  });
  return { child, firstLine, exited };
}

it("a job started by a killed worker wakes the other worker once, and its model gets the exit event once", async () => {
  const host = await startHostProgram();
  const a = startWorker(["start", host.socketPath, "T"]);
  const { sessionId } = (await a.firstLine) as { sessionId: string };
  expect(sessionId).toMatch(/^[a-z]+-[a-z]+$/);
  a.child.kill("SIGKILL");
  await a.exited;
  expect(processesRunning("sleep 3; echo built")).toHaveLength(1); // the job outlives its worker

  const b = startWorker(["wake", host.socketPath, "T", sessionId]);
  const report = (await b.firstLine) as {
    runs: number; runEvents: string[][]; eventMessages: string[]; poll: string[]; answer: string; modelCalls: number;
  };
  expect(report.runs).toBe(1);
  expect(report.runEvents).toEqual([[sessionId]]);
  expect(report.eventMessages).toEqual([`System: Exec completed (${sessionId.slice(0, 8)}, code 0) :: built`]);
  expect(report.poll).toHaveLength(1);
  expect(report.poll[0]).toContain("built");
  expect(report.answer).toBe("the build is done");
  expect(report.modelCalls).toBe(2);
  await b.exited;

  host.child.kill("SIGTERM");
  expect(await host.exited).toEqual([0, null]);
  expect(existsSync(dirname(host.socketPath))).toBe(false);
  expect(processesRunning("sleep 3; echo built")).toEqual([]);
}, 60_000);
