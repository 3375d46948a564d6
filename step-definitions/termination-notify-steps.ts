// Steps for termination, PTY, input-wait and notification scenarios: pid files written by commands, terminal
// devices, detail comparisons, event timestamps and the child-process bridge probe (KILL-17 … KILL-20).
import { Then, When } from "@cucumber/cucumber";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { BridgeProbe, BridgeProbeResult } from "../conformance/adapter.js";
import { parseJsonArgs, readPath } from "./support/text.js";
import { CHECK_EVERY_MS, sleep } from "./support/waits.js";
import type { ConformanceWorld } from "./support/world.js";

const FILE_WAIT_MS = 5000;

/** Reads a pid (or other one-line value) a command wrote into a file of the scenario's working directory. */
function readLine(world: ConformanceWorld, file: string): string {
  return readFileSync(join(world.cwd, file), "utf8").trim();
}

function readPid(world: ConformanceWorld, file: string): number {
  const text = readLine(world, file);
  const pid = Number(text);
  assert.ok(Number.isInteger(pid) && pid > 0, `file ${file} holds no pid: ${JSON.stringify(text)}`);
  return pid;
}

/** True while the process exists and is not a zombie (a zombie has exited; PID 1 may never reap it). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return true; // no /proc: kill(pid, 0) succeeding is all we know
  }
}

async function waitUntil(check: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(CHECK_EVERY_MS);
  }
}

When("the pid file {string} has been written", async function (this: ConformanceWorld, file: string) {
  const written = await waitUntil(() => {
    try {
      return /^\d+$/.test(readLine(this, file));
    } catch {
      return false;
    }
  }, FILE_WAIT_MS);
  assert.ok(written, `file ${file} held no pid after ${FILE_WAIT_MS} ms`);
});

Then("the process whose pid is in file {string} is running", function (this: ConformanceWorld, file: string) {
  const pid = readPid(this, file);
  assert.ok(isRunning(pid), `process ${pid} (from ${file}) is not running`);
});

// A kill returns once the signal is sent; the process is gone once the kernel has scheduled it to die, which a
// loaded machine (or a kill sent over SSH) can delay by some milliseconds: "has ended" allows T for that.
Then("the process whose pid is in file {string} has ended", async function (this: ConformanceWorld, file: string) {
  const pid = readPid(this, file);
  const ended = await waitUntil(() => !isRunning(pid), this.toleranceMs);
  assert.ok(ended, `process ${pid} (from ${file}) was still running ${this.toleranceMs} ms (T) later`);
});

Then("the process whose pid is in file {string} has ended within {int} ms", async function (this: ConformanceWorld, file: string, ms: number) {
  const pid = readPid(this, file);
  const ended = await waitUntil(() => !isRunning(pid), ms + this.toleranceMs);
  assert.ok(ended, `process ${pid} (from ${file}) was still running after ${ms} ms (+ tolerance)`);
});

// PTY-10: a pseudo-terminal's slave device (/dev/pts/N) exists while its master is open. The ctime tells a
// released device apart from a new terminal that reuses the same number.
const notedTerminals = new WeakMap<ConformanceWorld, { path: string; ctimeNs: bigint }>();

When("the terminal device named in file {string} is noted", async function (this: ConformanceWorld, file: string) {
  const named = await waitUntil(() => {
    try {
      return readLine(this, file).startsWith("/dev/");
    } catch {
      return false;
    }
  }, FILE_WAIT_MS);
  assert.ok(named, `file ${file} named no terminal device after ${FILE_WAIT_MS} ms`);
  const path = readLine(this, file);
  notedTerminals.set(this, { path, ctimeNs: statSync(path, { bigint: true }).ctimeNs });
});

Then("the noted terminal device is released within {int} ms", async function (this: ConformanceWorld, ms: number) {
  const noted = notedTerminals.get(this);
  assert.ok(noted, "no terminal device was noted");
  const released = await waitUntil(() => {
    try {
      return statSync(noted.path, { bigint: true }).ctimeNs !== noted.ctimeNs;
    } catch {
      return true;
    }
  }, ms + this.toleranceMs);
  assert.ok(released, `terminal device ${noted.path} was still open after ${ms} ms (+ tolerance)`);
});

Then("the detail {string} has the same value as the detail {string}", function (this: ConformanceWorld, a: string, b: string) {
  const { details } = this.lastResult();
  const left = readPath(details, a);
  assert.notEqual(left, undefined, `detail ${a} is absent: ${JSON.stringify(details)}`);
  assert.deepEqual(left, readPath(details, b));
});

// WAIT-02: upstream takes the idle clock's start from its process supervisor, a few ms after startedAt.
Then("the detail {string} is at most {int} ms after the detail {string}", function (this: ConformanceWorld, a: string, ms: number, b: string) {
  const { details } = this.lastResult();
  const [later, earlier] = [readPath(details, a), readPath(details, b)];
  assert.ok(typeof later === "number" && typeof earlier === "number", `details ${a} and ${b} are not numbers: ${JSON.stringify(details)}`);
  assert.ok(later >= earlier && later <= earlier + ms + this.toleranceMs, `${a} is ${later}, ${b} is ${earlier}: not within ${ms} ms (+ tolerance) after it`);
});

Then("event {int} was created within the last {int} ms", function (this: ConformanceWorld, index: number, ms: number) {
  const event = this.events[index - 1];
  assert.ok(event, `there is no event ${index}: ${JSON.stringify(this.events)}`);
  assert.equal(typeof event.createdAt, "number", `event ${JSON.stringify(event)}`);
  const age = Date.now() - event.createdAt;
  assert.ok(age >= 0 && age <= ms + this.toleranceMs, `event ${index} was created ${age} ms ago`);
});

// The bridge helper probe (KILL-17 … KILL-20), run by the implementation inside a host process of its own.
const probes = new WeakMap<ConformanceWorld, BridgeProbeResult>();

function probeResult(world: ConformanceWorld): BridgeProbeResult {
  const result = probes.get(world);
  assert.ok(result, "the bridge helper has not been probed");
  return result;
}

function signalList(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

When("the bridge helper is probed with:", async function (this: ConformanceWorld, json: string) {
  const instance = await this.ensureStarted();
  assert.ok(instance.bridgeProbe, "the adapter offers no bridgeProbe()");
  probes.set(this, await instance.bridgeProbe(parseJsonArgs(this, json) as unknown as BridgeProbe));
});

Then("the bridge forwarded the signals {string} to the child", function (this: ConformanceWorld, signals: string) {
  assert.deepEqual(probeResult(this).forwarded, signalList(signals));
});

Then("the bridge forwarded no signal to the child", function (this: ConformanceWorld) {
  assert.deepEqual(probeResult(this).forwarded, []);
});

Then("the bridge called onSignal with {string}", function (this: ConformanceWorld, signals: string) {
  assert.deepEqual(probeResult(this).onSignal, signalList(signals));
});

Then("the bridge never called onSignal", function (this: ConformanceWorld) {
  assert.deepEqual(probeResult(this).onSignal, []);
});

Then("the bridge left {int} signal listener(s) on the host process", function (this: ConformanceWorld, count: number) {
  assert.equal(probeResult(this).listenersLeft, count);
});

Then("the bridge host process is still alive", function (this: ConformanceWorld) {
  assert.equal(probeResult(this).hostAlive, true);
});
