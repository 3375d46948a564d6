// toolkit.wakeOnExit: an idle agent is run again when its background work ends (createAgent + fakeModel +
// MemorySaver, offline). Every job and every wake loop a test starts is ended by the test.
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, createMiddleware, fakeModel } from "langchain";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ExecProcessError, createExecTools, type ExecTools, type WakeableRunnable, type WakeResult, type WakeRun,
} from "../../src/index.js";

const SCOPE = "agent:builder";
const THREAD = { configurable: { thread_id: "t1" } };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let cwd: string;
let kit: ExecTools;
const stops: Array<() => void> = [];

beforeEach(() => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), "wake-test-")));
  kit = createExecTools({ agentName: "builder", cwd, env: { ...process.env, SHELL: "/bin/sh" } });
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await kit.dispose();
  rmSync(cwd, { recursive: true, force: true });
});

/** Starts a background job in the toolkit's scope and returns its session id. */
async function startJob(command: string): Promise<string> {
  const result = await kit.engine.exec({ command, background: true }, { scopeKey: SCOPE });
  return String(result.details["sessionId"]);
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The text of every message the model was given, over all its calls. */
function modelInputs(model: ReturnType<typeof fakeModel>): string[][] {
  return model.calls.map((call) => call.messages.map((m: BaseMessage) => (typeof m.content === "string" ? m.content : "")));
}

/** Wraps a runnable to record its runs and whether two of them ever overlapped. */
function recordRuns(runnable: WakeableRunnable) {
  const record = { started: 0, active: 0, maxActive: 0, endedAt: [] as number[] };
  const wrapped: WakeableRunnable = {
    invoke: async (input, config) => {
      record.started += 1;
      record.active += 1;
      record.maxActive = Math.max(record.maxActive, record.active);
      try {
        return await runnable.invoke(input, config);
      } finally {
        record.active -= 1;
        record.endedAt.push(Date.now());
      }
    },
  };
  return { record, wrapped };
}

function newAgent(model: ReturnType<typeof fakeModel>, extra: ReturnType<typeof createMiddleware>[] = []) {
  return createAgent({ model, tools: kit.tools, middleware: [kit.middleware, ...extra], checkpointer: new MemorySaver() });
}

describe("toolkit.wakeOnExit", () => {
  it("runs the idle agent once when a job ends, and the model's input contains the exit notice", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "sleep 0.3; echo built", background: true } }])
      .respond(new AIMessage("started"))
      .respond(new AIMessage("the build is done"));
    const agent = newAgent(model);
    const runs: WakeRun[] = [];
    const errors: unknown[] = [];
    stops.push(kit.toolkit.wakeOnExit(agent, THREAD, { onRun: (run) => void runs.push(run), onError: (e) => void errors.push(e) }));

    const first = await agent.invoke({ messages: [new HumanMessage("build it")] }, THREAD);
    const id = String((first.messages[2] as { artifact?: { sessionId?: string } }).artifact?.sessionId);
    await waitFor(() => model.calls.length === 3, "the wake run's model call");
    await sleep(800); // a second run would start within the debounce; none may

    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ threadId: "t1", scopeKey: SCOPE, events: [{ sessionId: id, text: `Exec completed (${id.slice(0, 8)}, code 0) :: built` }] });
    expect(modelInputs(model)[2]).toContain(`System: Exec completed (${id.slice(0, 8)}, code 0) :: built`);
    expect(errors).toEqual([]);
    const state = (await agent.getState(THREAD)) as unknown as { values: { messages: BaseMessage[] } };
    const history = state.values.messages.map((m) => m.content);
    expect(history.slice(-2)).toEqual([`System: Exec completed (${id.slice(0, 8)}, code 0) :: built`, "the build is done"]);
  });

  it("hands onResult what the wake run produced: the agent's answer to the exit notice, typed as the agent's state", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "sleep 0.3; echo built", background: true } }])
      .respond(new AIMessage("started"))
      .respond(new AIMessage("the build is done"));
    const agent = newAgent(model);
    const results: Array<WakeResult<{ messages: BaseMessage[] }>> = [];
    const order: string[] = [];
    stops.push(kit.toolkit.wakeOnExit(agent, THREAD, {
      onRun: () => void order.push("run"),
      onResult: (wake) => void (order.push("result"), results.push(wake)),
    }));

    const first = await agent.invoke({ messages: [new HumanMessage("build it")] }, THREAD);
    const id = String((first.messages[2] as { artifact?: { sessionId?: string } }).artifact?.sessionId);
    await waitFor(() => results.length === 1, "onResult");

    expect(order).toEqual(["run", "result"]);
    const [wake] = results;
    expect(wake).toMatchObject({ threadId: "t1", scopeKey: SCOPE, events: [{ sessionId: id }] });
    expect(wake!.result.messages.at(-1)?.content).toBe("the build is done");
    expect(wake!.result.messages.at(-2)?.content).toBe(`System: Exec completed (${id.slice(0, 8)}, code 0) :: built`);
  });

  it("calls onResult for no failed run, and a throwing onResult does not stop the loop", async () => {
    const failure = new Error("model unavailable");
    let calls = 0;
    const results: unknown[] = [];
    const flaky: WakeableRunnable<string> = {
      invoke: () => (++calls === 1 ? Promise.reject(failure) : Promise.resolve(`answer ${calls}`)),
    };
    const errors: unknown[] = [];
    stops.push(kit.toolkit.wakeOnExit(flaky, THREAD, {
      debounceMs: 0,
      onError: (e) => void errors.push(e),
      onResult: (wake) => {
        results.push(wake.result);
        throw new Error("the UI failed");
      },
    }));
    await startJob("sleep 0.1; echo first");
    await waitFor(() => errors.length === 1, "the failed run");
    await startJob("sleep 0.1; echo second");
    await waitFor(() => results.length === 1, "the second run's result");
    await startJob("sleep 0.1; echo third");
    await waitFor(() => results.length === 2, "the third run's result");

    expect(errors).toEqual([failure]);
    expect(results).toEqual(["answer 2", "answer 3"]);
  });

  it("wakes once or twice for two jobs ending 300 ms apart, never concurrently, and both notices are seen", async () => {
    const model = fakeModel().respond(new AIMessage("noted")).respond(new AIMessage("noted again"));
    const { record, wrapped } = recordRuns(newAgent(model));
    const errors: unknown[] = [];
    stops.push(kit.toolkit.wakeOnExit(wrapped, THREAD, { onError: (e) => void errors.push(e) }));

    const a = await startJob("sleep 0.3; echo first");
    const b = await startJob("sleep 0.6; echo second");
    await waitFor(() => kit.engine.peekSystemEvents(SCOPE).length === 0 && !kit.engine.liveSessionIds().length, "both notices delivered");
    await waitFor(() => record.active === 0, "the last wake run to end");
    await sleep(800);

    expect(record.started).toBeGreaterThanOrEqual(1);
    expect(record.started).toBeLessThanOrEqual(2);
    expect(record.maxActive).toBe(1);
    const seen = modelInputs(model).flat();
    expect(seen.some((text) => text.includes(`Exec completed (${a.slice(0, 8)}, code 0) :: first`))).toBe(true);
    expect(seen.some((text) => text.includes(`Exec completed (${b.slice(0, 8)}, code 0) :: second`))).toBe(true);
    expect(errors).toEqual([]);
  });

  it("runs one follow-up after the user's own run when a job ended while that run was in flight", async () => {
    let lingerEndedAt = 0;
    let slowed = false;
    // The user's run lingers 1.5 s after its last model call, so the job ends while it is still in flight.
    const slowFinish = createMiddleware({
      name: "SlowFinish",
      afterModel: async (state) => {
        const last = state.messages.at(-1) as AIMessage | undefined;
        if (!slowed && last && (last.tool_calls ?? []).length === 0) {
          slowed = true;
          await sleep(1500);
          lingerEndedAt = Date.now();
        }
        return undefined;
      },
    });
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "sleep 0.3; echo built", background: true } }])
      .respond(new AIMessage("started"))
      .respond(new AIMessage("the build is done"));
    const agent = newAgent(model, [slowFinish]);
    const runs: Array<{ at: number; run: WakeRun }> = [];
    stops.push(kit.toolkit.wakeOnExit(agent, THREAD, { debounceMs: 50, onRun: (run) => void runs.push({ at: Date.now(), run }) }));

    await agent.invoke({ messages: [new HumanMessage("build it")] }, THREAD);
    await waitFor(() => model.calls.length === 3, "the follow-up's model call");
    await sleep(800);

    expect(runs).toHaveLength(1);
    expect(runs[0]!.at).toBeGreaterThanOrEqual(lingerEndedAt); // not while the user's run was still in flight
    expect(modelInputs(model)[2]?.some((text) => /^System: Exec completed \([a-z0-9-]{1,8}, code 0\) :: built$/.test(text))).toBe(true);
  });

  it("does not run again when the user's own run already handed the notice to the model", async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: "exec", args: { command: "sleep 0.2; echo built", background: true } },
        { name: "exec", args: { command: "sleep 1", yieldMs: 5000 } },
      ])
      .respond(new AIMessage("noted the build"));
    const agent = newAgent(model);
    const runs: WakeRun[] = [];
    stops.push(kit.toolkit.wakeOnExit(agent, THREAD, { debounceMs: 50, onRun: (run) => void runs.push(run) }));

    await agent.invoke({ messages: [new HumanMessage("build and wait")] }, THREAD);
    await sleep(800);

    expect(modelInputs(model)[1]?.some((text) => text.startsWith("System: Exec completed ("))).toBe(true);
    expect(runs).toEqual([]);
  });

  // That nextRun() holds the host open until the run ended is checked by test/langchain/readme-wake.test.ts, as a script.
  it("nextRun() resolves with the next wake run's result, the same onResult gets", async () => {
    const model = fakeModel().respond(new AIMessage("the build is done"));
    const results: unknown[] = [];
    const wake = kit.toolkit.wakeOnExit(newAgent(model), THREAD, { debounceMs: 0, onResult: (run) => void results.push(run) });
    stops.push(wake);
    const next = wake.nextRun();
    const id = await startJob("sleep 0.2; echo built");
    const run = await next;

    expect(run).toMatchObject({ threadId: "t1", scopeKey: SCOPE, events: [{ sessionId: id }] });
    expect(run.result.messages.at(-1)?.content).toBe("the build is done");
    expect(results).toEqual([run]);
  });

  it("nextRun() rejects with the wake run's error, and with code wake-stopped after stop() or dispose()", async () => {
    const failure = new Error("model unavailable");
    const failing = kit.toolkit.wakeOnExit({ invoke: () => Promise.reject(failure) }, THREAD, { debounceMs: 0 });
    stops.push(failing);
    const failed = failing.nextRun();
    await startJob("sleep 0.1; echo built");
    await expect(failed).rejects.toBe(failure);

    const stopped = kit.toolkit.wakeOnExit(newAgent(fakeModel()), { configurable: { thread_id: "t2" } });
    const waiting = stopped.nextRun();
    stopped.stop();
    await expect(waiting).rejects.toSatisfy((error) => ExecProcessError.is(error, "wake-stopped"));
    await expect(stopped.nextRun()).rejects.toThrow("wakeOnExit was stopped (stop() or engine.dispose()) before a wake run ended: no wake run follows.");

    const disposed = kit.toolkit.wakeOnExit(newAgent(fakeModel()), { configurable: { thread_id: "t3" } }).nextRun();
    await kit.dispose();
    await expect(disposed).rejects.toSatisfy((error) => ExecProcessError.is(error, "wake-stopped"));
  });

  it("starts no run after stop(); the notice stays queued", async () => {
    const model = fakeModel();
    const { record, wrapped } = recordRuns(newAgent(model));
    const stop = kit.toolkit.wakeOnExit(wrapped, THREAD, { debounceMs: 0 });
    stop();
    const id = await startJob("sleep 0.2; echo built");
    await waitFor(() => kit.engine.peekSystemEvents(SCOPE).length === 1, "the exit notice");
    await sleep(500);

    expect(record.started).toBe(0);
    expect(kit.engine.peekSystemEvents(SCOPE).map((event) => event.sessionId)).toEqual([id]);
  });

  it("starts no run after engine.dispose(), even with a notice waiting out its debounce", async () => {
    const { record, wrapped } = recordRuns(newAgent(fakeModel()));
    stops.push(kit.toolkit.wakeOnExit(wrapped, THREAD, { debounceMs: 600 }));
    await startJob("sleep 0.1; echo built");
    await waitFor(() => kit.engine.peekSystemEvents(SCOPE).length === 1, "the exit notice");
    await kit.dispose();
    await sleep(900);

    expect(record.started).toBe(0);
  });

  it("keeps to maxRunsPerMinute: a second burst within the minute waits", async () => {
    const model = fakeModel().respond(new AIMessage("noted"));
    const { record, wrapped } = recordRuns(newAgent(model));
    stops.push(kit.toolkit.wakeOnExit(wrapped, THREAD, { debounceMs: 0, maxRunsPerMinute: 1 }));
    await startJob("sleep 0.1; echo first");
    await waitFor(() => record.endedAt.length === 1, "the first wake run");
    const second = await startJob("sleep 0.1; echo second");
    await waitFor(() => kit.engine.peekSystemEvents(SCOPE).length === 1, "the second notice");
    await sleep(600);

    expect(record.started).toBe(1);
    expect(kit.engine.peekSystemEvents(SCOPE).map((event) => event.sessionId)).toEqual([second]);
  });

  it("passes a failed run's error to onError and keeps the notice queued", async () => {
    const failure = new Error("model unavailable");
    const errors: unknown[] = [];
    const failing: WakeableRunnable = { invoke: () => Promise.reject(failure) };
    stops.push(kit.toolkit.wakeOnExit(failing, THREAD, { debounceMs: 0, maxRunsPerMinute: 1, onError: (e) => void errors.push(e) }));
    await startJob("sleep 0.1; echo built");
    await waitFor(() => errors.length === 1, "onError");

    expect(errors).toEqual([failure]);
    expect(kit.engine.peekSystemEvents(SCOPE)).toHaveLength(1);
  });

  it("does not repeat a run that left the notice queued (a graph without the exit-event node)", async () => {
    let started = 0;
    const deaf: WakeableRunnable = { invoke: async () => void (started += 1) };
    stops.push(kit.toolkit.wakeOnExit(deaf, THREAD, { debounceMs: 0 }));
    await startJob("sleep 0.1; echo built");
    await waitFor(() => started === 1, "the wake run");
    await sleep(600);

    expect(started).toBe(1);
    expect(kit.engine.peekSystemEvents(SCOPE)).toHaveLength(1);
  });

  it("watches the thread's own scope under scopeFromThread, and no other scope", async () => {
    await kit.dispose();
    kit = createExecTools({ agentName: "builder", scopeFromThread: true, cwd, env: { ...process.env, SHELL: "/bin/sh" } });
    const runs: WakeRun[] = [];
    const idle: WakeableRunnable = { invoke: async () => undefined };
    stops.push(kit.toolkit.wakeOnExit(idle, THREAD, { debounceMs: 0, onRun: (run) => void runs.push(run) }));
    await kit.engine.exec({ command: "sleep 0.1; echo other", background: true }, { scopeKey: SCOPE });
    const own = await kit.engine.exec({ command: "sleep 0.3; echo own", background: true }, { scopeKey: "thread:t1" });
    await waitFor(() => runs.length === 1, "the wake run of thread t1");
    await sleep(300);

    expect(runs).toEqual([{ threadId: "t1", scopeKey: "thread:t1", events: [expect.objectContaining({ sessionId: own.details["sessionId"] })] }]);
    expect(kit.engine.peekSystemEvents(SCOPE)).toHaveLength(1);
  });

  it.each([
    [{ debounceMs: -1 }, "debounceMs", `wakeOnExit: debounceMs must be a number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest delay a Node.js timer can wait) (got "-1").`],
    [{ debounceMs: Number.NaN }, "debounceMs", `wakeOnExit: debounceMs must be a number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest delay a Node.js timer can wait) (got "NaN").`],
    [{ debounceMs: 3e9 }, "debounceMs", `wakeOnExit: debounceMs must be a number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest delay a Node.js timer can wait) (got "3000000000").`],
    [{ debounceMs: Infinity }, "debounceMs", `wakeOnExit: debounceMs must be a number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest delay a Node.js timer can wait) (got "Infinity").`],
    [{ maxRunsPerMinute: 0 }, "maxRunsPerMinute", 'wakeOnExit: maxRunsPerMinute must be a number of at least 1, or Infinity (got "0").'],
  ])("refuses the options %o with an invalid-option ExecProcessError naming the option", (options, option, text) => {
    const thrown = (() => {
      try {
        kit.toolkit.wakeOnExit(newAgent(fakeModel()), THREAD, options)();
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(ExecProcessError.is(thrown, "invalid-option")).toBe(true);
    expect(thrown).toMatchObject({ message: text, data: { owner: "wakeOnExit", option } });
  });

  it("accepts the longest debounce a timer can wait, 2147483647 ms", () => {
    const stop = kit.toolkit.wakeOnExit(newAgent(fakeModel()), THREAD, { debounceMs: 2_147_483_647 });
    expect(typeof stop).toBe("function");
    stop();
  });

  it("refuses a config without a thread id", () => {
    expect(() => kit.toolkit.wakeOnExit(newAgent(fakeModel()), {})).toThrow(
      "wakeOnExit: config.configurable.thread_id is required: it names the thread the agent is woken on.");
  });
});
