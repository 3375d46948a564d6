// The kit's stdio adapter: against the reference server, and against tiny broken implementations
// (test/conformance/fixtures) whose every failure must become a clear error, never a hang.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AdapterInstance, ConformanceAdapter } from "../../conformance/adapter.js";
import { createStdioAdapter, resolveProgram } from "../../conformance/adapters/stdio-client.js";
import type { StdioProtocolError } from "../../conformance/adapters/stdio-error.js";
import type { StdioInstance } from "../../conformance/adapters/stdio-instance.js";
import { loadAdapterFromEnvironment } from "../../conformance/load-adapter.js";
import { createScenarioEnv, useScenarioEnv, type ScenarioEnv } from "./helpers/scenario-env.js";

const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const fixture = (name: string): string => `node ${fileURLToPath(new URL(`./fixtures/${name}.mjs`, import.meta.url))}`;

const currentScenario = useScenarioEnv();

/** The process exists and is no zombie. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

const startIn = (adapter: ConformanceAdapter): Promise<AdapterInstance> =>
  adapter.start({ env: currentScenario().env, config: { tools: { exec: {} } }, cwd: currentScenario().cwd });

/** The rejection of `promise`, which must come within `withinMs`. */
async function rejectionOf(promise: Promise<unknown>, withinMs: number): Promise<StdioProtocolError> {
  const startedAt = Date.now();
  const error = await promise.then(() => undefined, (reason: unknown) => reason);
  expect(Date.now() - startedAt).toBeLessThan(withinMs);
  expect(error).toBeInstanceOf(Error);
  return error as StdioProtocolError;
}

describe("createStdioAdapter with the reference stdio server", () => {
  it("reads the capabilities with a probe, runs calls, aborts one at once, and ends after dispose", async () => {
    const adapter = await createStdioAdapter({ command: "node conformance/stdio-server.mjs", callTimeoutMs: 30_000, commandCwd: PACKAGE_ROOT });
    expect(adapter.capabilities).toEqual(["pty", "executor", "bridge", "faults", "langchain", "watch", "dedupe"]);
    const instance = await startIn(adapter);
    expect(await instance.call("exec", { command: "echo hi" }, { scope: "main" })).toMatchObject({ kind: "result", text: "hi" });
    const aborted = await instance.call("exec", { command: "sleep 5; touch late" }, { scope: "main", abortAfterMs: 0 });
    expect(aborted).toEqual({ kind: "error", message: "This operation was aborted", name: "AbortError" });
    expect(instance.executorRequests).toBeTypeOf("function");
    await instance.dispose();
    expect(await instance.liveSessionIds()).toEqual([]); // still answering after dispose (KILL-15 scenarios)
    await (instance as StdioInstance).close();
    await expect(instance.liveSessionIds()).rejects.toThrow(/was ended by the kit at the end of the scenario/);
  });

  it("with reuse, runs the scenarios of a worker in one process, each with its own environment, and replaces a dead one", async () => {
    const adapter = await createStdioAdapter({ command: "node conformance/stdio-server.mjs", callTimeoutMs: 30_000, commandCwd: PACKAGE_ROOT, reuse: true });
    const host = async (env: ScenarioEnv): Promise<{ pid: number; marker: string }> => {
      const instance = await adapter.start({ env: env.env, config: { tools: { exec: {} } }, cwd: env.cwd });
      const outcome = await instance.call("exec", { command: 'echo "$PPID $CONFORMANCE_SCENARIO"' }, { scope: "main" });
      await instance.dispose();
      await (instance as StdioInstance).close();
      const [pid, marker] = (outcome as { text: string }).text.split(" ");
      return { pid: Number(pid), marker: marker ?? "" };
    };
    const second = createScenarioEnv();
    const third = createScenarioEnv();
    try {
      const a = await host(currentScenario());
      const b = await host(second);
      expect(b.pid).toBe(a.pid); // the same implementation process served both
      expect([a.marker, b.marker]).toEqual([currentScenario().env["CONFORMANCE_SCENARIO"], second.env["CONFORMANCE_SCENARIO"]]);
      expect(await second.survivors()).toEqual([]); // the idle process carries no scenario's marker
      process.kill(b.pid, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const c = await host(third);
      expect(c.pid).not.toBe(b.pid); // a dead process is replaced
      process.kill(c.pid, "SIGTERM");
    } finally {
      second.cleanup();
      third.cleanup();
    }
  });

  it.each([
    { reuse: true, starts: 1, what: "with reuse, the probe's process serves the first scenario" },
    { reuse: false, starts: 2, what: "without reuse, the probe's process ends and the scenario gets its own" },
  ])("$what", async ({ reuse, starts }) => {
    // Each start of the command appends a line to a file of the scenario's folder (the probe's environment is neutral,
    // so the path is in the command itself).
    const startsFile = join(currentScenario().cwd, "starts");
    const command = `echo started >> '${startsFile}'; exec node conformance/stdio-server.mjs`;
    const adapter = await createStdioAdapter({ command, callTimeoutMs: 30_000, commandCwd: PACKAGE_ROOT, reuse });
    const instance = await startIn(adapter);
    const outcome = await instance.call("exec", { command: "echo $PPID $CONFORMANCE_SCENARIO" }, { scope: "main" });
    const [pid, marker] = (outcome as { text: string }).text.split(" ");
    expect(marker).toBe(currentScenario().env["CONFORMANCE_SCENARIO"]); // the scenario's own environment
    await instance.dispose();
    await (instance as StdioInstance).close();
    expect(readFileSync(startsFile, "utf8")).toBe("started\n".repeat(starts));
    // A reused process stays idle for the next scenario until the worker exits; this test ends it itself.
    expect(isAlive(Number(pid))).toBe(reuse);
    if (reuse) process.kill(Number(pid), "SIGTERM");
  });

  it("carries the langchain capability: a description, invocations (one aborted at once), event messages and the hook", async () => {
    const adapter = await createStdioAdapter({
      command: "node conformance/stdio-server.mjs", callTimeoutMs: 30_000, commandCwd: PACKAGE_ROOT, capabilities: ["langchain"],
    });
    const instance = await startIn(adapter);
    const description = await instance.describeToolkit!({ agentName: "builder" });
    expect(description.scopeKey).toBe("agent:builder");
    expect(description.tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
    const toolkit = { scopeKey: "main" };
    expect(await instance.invokeTool!({ toolkit, tool: "exec", args: { command: "echo hi" }, asToolCall: false }))
      .toMatchObject({ kind: "return", value: "hi" });
    const aborted = await instance.invokeTool!({ toolkit, tool: "exec", args: { command: "sleep 5; touch late" }, asToolCall: true, abortAfterMs: 0 });
    expect(aborted).toMatchObject({ kind: "rejection", name: "AbortError", schemaError: false });
    const started = await instance.invokeTool!({ toolkit, tool: "exec", args: { command: "echo done", background: true }, asToolCall: true });
    expect(started).toMatchObject({ kind: "message", status: "success", artifact: { status: "running" } });
    const deadline = Date.now() + 10_000;
    while ((await instance.peekEvents("main")).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const conversation = await instance.applyBeforeModel!({ toolkit, messages: [{ type: "human", content: "hello" }] });
    expect(conversation).toEqual([{ type: "human", content: "hello" }, { type: "human", content: expect.stringMatching(/^System: /) }]);
    expect(await instance.drainEventMessages!({ toolkit })).toEqual([]);
    await instance.dispose();
    await (instance as StdioInstance).close();
  });

  it("ends the implementation by itself shortly after the last dispose", async () => {
    const adapter = await createStdioAdapter({ command: "node conformance/stdio-server.mjs", callTimeoutMs: 30_000, commandCwd: PACKAGE_ROOT, capabilities: [] });
    const instance = await startIn(adapter);
    const server = await instance.call("exec", { command: "echo $PPID" }, { scope: "main" });
    const serverPid = Number((server as { text: string }).text);
    expect(isAlive(serverPid)).toBe(true);
    await instance.call("exec", { command: "sleep 30", background: true }, { scope: "main" });
    await instance.dispose();
    const deadline = Date.now() + 10_000;
    while (isAlive(serverPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(serverPid)).toBe(false);
    // after each test (useScenarioEnv): no process with the scenario's marker survives (the survivor check waits up to 3 s)
  });
});

describe("progress while a call runs (protocol version 2)", () => {
  const server = async (flags: string): Promise<AdapterInstance> => startIn(await createStdioAdapter({
    command: `node conformance/stdio-server.mjs${flags}`, callTimeoutMs: 30_000, commandCwd: PACKAGE_ROOT, capabilities: [],
  }));
  // Its second line waits for a file that onUpdate writes: the call completes only if the first update came early.
  const waitsForTheKit = "echo one; until [ -e seen ]; do sleep 0.05; done; echo two";

  it("reaches the call's onUpdate as each update happens, and the answer lists the same updates", async () => {
    const instance = await server("");
    const seen: unknown[] = [];
    const onUpdate = (update: unknown): void => {
      seen.push(update);
      writeFileSync(join(currentScenario().cwd, "seen"), "");
    };
    const outcome = await instance.call("exec", { command: waitsForTheKit, yieldMs: 20_000 }, { scope: "main", onUpdate });
    expect(outcome).toMatchObject({ kind: "result", text: "one\ntwo" });
    expect(seen).toEqual((outcome as { updates: unknown[] }).updates);
    expect(seen).toHaveLength(2);
    await instance.dispose();
    await (instance as StdioInstance).close();
  });

  it("from a server that sends none (version 1), the updates come only with the answer", async () => {
    const instance = await server(" --no-progress");
    const seen: unknown[] = [];
    const outcome = await instance.call("exec", { command: "echo one" }, { scope: "main", onUpdate: (update) => void seen.push(update) });
    expect(outcome).toMatchObject({ kind: "result", text: "one", updates: [{ text: "one\n" }] });
    expect(seen).toEqual([]);
    await instance.dispose();
    await (instance as StdioInstance).close();
  });
});

describe("the stdio client's failure handling", () => {
  it("fails the call and kills the implementation when it sends progress for a request that was never sent", async () => {
    const instance = await startIn(await createStdioAdapter({ command: fixture("misreports-progress"), callTimeoutMs: 20_000, capabilities: [] }));
    const call = instance.call("exec", { command: "stray" }, { scope: "main", onUpdate: () => undefined });
    await expect(call).rejects.toThrow(/sent progress for request 102, which was never sent or was already answered/);
    await (instance as StdioInstance).close().catch(() => undefined);
  });

  it("fails a call whose answer lists other updates than the progress it sent", async () => {
    const instance = await startIn(await createStdioAdapter({ command: fixture("misreports-progress"), callTimeoutMs: 20_000, capabilities: [] }));
    const call = instance.call("exec", { command: "differ" }, { scope: "main", onUpdate: () => undefined });
    await expect(call).rejects.toThrow(/answered "call" with "updates" that differ from the 1 progress messages it sent before/);
    await instance.dispose();
    await (instance as StdioInstance).close();
  });

  it("fails a call that gets no answer with a timeout error that shows the stderr tail", async () => {
    const adapter = await createStdioAdapter({ command: fixture("never-answers-calls"), callTimeoutMs: 3000 });
    expect(adapter.capabilities).toEqual([]);
    const instance = await startIn(adapter);
    const error = await rejectionOf(instance.call("exec", { command: "echo hi" }, { scope: "main" }), 20_000);
    expect(error.failure).toBe("timeout");
    expect(error.message).toMatch(/never-answers-calls\.mjs` did not answer "call" \(request 2\) within 3000 ms/);
    expect(error.message).toContain("never-answers-calls: received call");
    await instance.dispose();
    await (instance as StdioInstance).close();
  });

  it("fails start with a timeout and kills the implementation when start gets no answer", async () => {
    const adapter = await createStdioAdapter({ command: fixture("never-answers"), callTimeoutMs: 2000, capabilities: [] });
    const error = await rejectionOf(startIn(adapter), 20_000);
    expect(error.message).toMatch(/did not answer "start" \(request 1\) within 2000 ms/);
    expect(error.message).toContain("never-answers: up, and not answering");
  });

  it("fails the call and kills the implementation when it prints a line that is not a protocol response", async () => {
    const adapter = await createStdioAdapter({ command: fixture("prints-garbage"), callTimeoutMs: 10_000 });
    expect(adapter.capabilities).toEqual(["pty"]);
    const instance = await startIn(adapter);
    const error = await rejectionOf(instance.call("exec", { command: "echo hi" }, { scope: "main" }), 10_000);
    expect(error.failure).toBe("malformed-line");
    expect(error.message).toContain('wrote a line to stdout that is not a protocol response (it is not JSON): "Starting the engine... done"');
    expect(error.message).toContain("prints-garbage: about to print a log line to stdout");
    await expect(instance.liveSessionIds()).rejects.toBe(error);
    await instance.dispose().catch(() => {}); // already reported through the call
  });

  it("fails the call with the exit code and the stderr tail when the implementation crashes mid-call", async () => {
    const adapter = await createStdioAdapter({ command: fixture("crashes-mid-call"), callTimeoutMs: 10_000 });
    const instance = await startIn(adapter);
    const error = await rejectionOf(instance.call("process", { action: "list" }, { scope: "main" }), 10_000);
    expect(error.failure).toBe("exited");
    expect(error.message).toMatch(/exited with code 3 while "call" \(request 2\) was waiting for an answer\./);
    expect(error.message).toContain("crashes-mid-call: Traceback (most recent call last): engine exploded");
  });

  it("with reuse, ends a probe whose dispose fails instead of keeping it, and says why", async () => {
    const pidFile = join(currentScenario().cwd, "pid");
    const error = await rejectionOf(
      createStdioAdapter({ command: `${fixture("reusable-dispose-fails")} '${pidFile}'`, callTimeoutMs: 5000, reuse: true }), 20_000,
    );
    expect(error.message).toContain("Reading the capabilities of the stdio implementation failed");
    expect(error.message).toContain("reusable-dispose-fails: cannot dispose");
    const pid = Number(readFileSync(pidFile, "utf8"));
    const deadline = Date.now() + 5_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isAlive(pid)).toBe(false);
  });

  it("fails the capability probe with the reason when the command cannot run", async () => {
    const error = await rejectionOf(createStdioAdapter({ command: "no-such-implementation --serve", callTimeoutMs: 5000 }), 20_000);
    expect(error.message).toContain("Reading the capabilities of the stdio implementation failed");
    expect(error.message).toMatch(/exited with code 127 while "start" \(request 1\) was waiting/);
    expect(error.message).toContain("not found");
  });
});

describe("resolveProgram", () => {
  const path = `/nonexistent:${process.env["PATH"]}`;
  const node = execFileSync("/bin/sh", ["-c", "command -v node"], { env: { PATH: path } }).toString().trim();
  it.each([
    ["node x.mjs", "<node> x.mjs"],
    ["  node", "  <node>"],
    ["./impl --serve", "./impl --serve"],
    ["/opt/impl", "/opt/impl"],
    ["exec node x.mjs", "exec node x.mjs"],
    ["FOO=1 node x.mjs", "FOO=1 node x.mjs"],
    ["no-such-program-here arg", "no-such-program-here arg"],
  ])("turns %j into %j, looking the program up on the kit's PATH", (command, expected) => {
    expect(resolveProgram(command, path)).toBe(expected.replace("<node>", node));
  });
});

describe("loadAdapterFromEnvironment with CONFORMANCE_COMMAND", () => {
  const env = { CONFORMANCE_COMMAND: "node conformance/stdio-server.mjs", CONFORMANCE_CALL_TIMEOUT_MS: "5000" };

  it.each([["none", []], ["", []], ["pty,executor", ["pty", "executor"]], ["bridge pty", ["pty", "bridge"]]])(
    "takes CONFORMANCE_CAPABILITIES=%j as %j without a probe",
    async (value, expected) => {
      const adapter = await loadAdapterFromEnvironment({ ...env, CONFORMANCE_CAPABILITIES: value });
      expect([...adapter.capabilities].sort()).toEqual([...expected].sort());
      expect(adapter.name).toBe("stdio: node conformance/stdio-server.mjs");
    },
  );

  it("names the valid capabilities when CONFORMANCE_CAPABILITIES has an unknown one", async () => {
    await expect(loadAdapterFromEnvironment({ ...env, CONFORMANCE_CAPABILITIES: "pty,gpu" }))
      .rejects.toThrow('CONFORMANCE_CAPABILITIES names "gpu", which is not a capability; use pty, executor, bridge, faults, langchain, watch, dedupe or none');
  });

  it("rejects a CONFORMANCE_CALL_TIMEOUT_MS that is not a whole number", async () => {
    await expect(loadAdapterFromEnvironment({ ...env, CONFORMANCE_CALL_TIMEOUT_MS: "30s" }))
      .rejects.toThrow('CONFORMANCE_CALL_TIMEOUT_MS must be a whole number of ms from 1 to 2147483647 (got "30s")');
  });
});
