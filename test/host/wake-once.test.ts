// Two workers that share a session host and both wake the same thread (issue 33): the host grants the wake claim of
// the thread's scope to one at a time, so an exit event runs the agent once, not once per worker; a worker that
// leaves holding the claim gives it back, and its events are announced again.
import { AIMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, fakeModel } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { connectSessionHost, createExecTools, type ExecTools, type RemoteSessionEngine, type WakeRun } from "../../src/index.js";
import { disposeEngines, sleep, waitUntil } from "../reliability/helpers.js";
import { TOKEN, startHost, stopAll } from "./helpers.js";

const THREAD = { configurable: { thread_id: "T" } };
const stops: Array<() => void> = [];
const kits: Array<ExecTools<RemoteSessionEngine>> = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(kits.splice(0).map((kit) => kit.dispose()));
  await stopAll();
  await disposeEngines();
});

async function worker(socketPath: string) {
  const kit = createExecTools({ engine: await connectSessionHost({ socketPath, token: TOKEN }), scopeFromThread: true });
  kits.push(kit);
  const model = fakeModel().respond(new AIMessage("noted")).respond(new AIMessage("noted again"));
  const agent = createAgent({ model, tools: kit.tools, middleware: [kit.middleware], checkpointer: new MemorySaver() });
  const runs: WakeRun[] = [];
  stops.push(kit.toolkit.wakeOnExit(agent, THREAD, { debounceMs: 50, onRun: (run) => void runs.push(run) }));
  return { kit, model, runs };
}

describe("wakeOnExit in two workers of one session host", () => {
  it("runs the agent once per exit event, in one of the workers", async () => {
    const host = await startHost();
    const workers = [await worker(host.socketPath), await worker(host.socketPath)];
    await sleep(200); // both subscriptions reach the host
    for (let round = 1; round <= 3; round += 1) {
      await host.engine.exec({ command: `echo round ${round}`, background: true }, { scopeKey: "thread:T" });
      await waitUntil(() => workers.reduce((sum, w) => sum + w.runs.length, 0) >= round, 10_000);
      await sleep(600); // a second worker's run would have started by now
      expect(workers.reduce((sum, w) => sum + w.runs.length, 0)).toBe(round);
    }
    expect(host.engine.peekSystemEvents("thread:T")).toEqual([]);
    const seen = workers.flatMap((w) => w.runs.flatMap((run) => run.events.map((event) => event.text.split(" :: ")[1])));
    expect(seen).toEqual(["round 1", "round 2", "round 3"]);
  });
});
