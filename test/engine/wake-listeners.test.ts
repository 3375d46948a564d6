// engine.addWakeListener: subscribers added after creation get every wake request (NOTIFY-12) until removed or
// until dispose(), which tells them once.
import { afterEach, describe, expect, it } from "vitest";
import { createSessionEngine, type LocalSessionEngine, type WakeRequest } from "../../src/engine/index.js";

const engines: LocalSessionEngine[] = [];
const newEngine = (): LocalSessionEngine => {
  const engine = createSessionEngine({ env: { ...process.env, SHELL: "/bin/sh" } });
  engines.push(engine);
  return engine;
};
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()));
});

async function runToExit(engine: LocalSessionEngine, command: string): Promise<string> {
  const result = await engine.exec({ command, background: true }, { scopeKey: "s1" });
  const id = String(result.details["sessionId"]);
  while (engine.liveSessionIds().includes(id)) await new Promise((resolve) => setTimeout(resolve, 20));
  return id;
}

describe("engine.addWakeListener", () => {
  it("calls the listener once per queued exit event with the wake request, after the event is queued", async () => {
    const engine = newEngine();
    const seen: Array<{ request: WakeRequest; queued: number }> = [];
    engine.addWakeListener({ onWake: (request) => void seen.push({ request, queued: engine.peekSystemEvents("s1").length }) });
    const id = await runToExit(engine, "echo done");
    expect(seen).toEqual([{ request: { scopeKey: "s1", sessionId: id, source: "exec-event", reason: "exec-event" }, queued: 1 }]);
  });

  it("stops calling a removed listener, and ignores a listener that throws", async () => {
    const engine = newEngine();
    const seen: string[] = [];
    const remove = engine.addWakeListener({ onWake: (request) => void seen.push(request.sessionId) });
    engine.addWakeListener({ onWake: () => { throw new Error("listener failed"); } });
    const first = await runToExit(engine, "echo one");
    remove();
    await runToExit(engine, "echo two");
    expect(seen).toEqual([first]);
    expect(engine.peekSystemEvents("s1")).toHaveLength(2);
  });

  it("tells every listener once when the engine is disposed, and a listener added afterwards at once", async () => {
    const engine = newEngine();
    let disposals = 0;
    engine.addWakeListener({ onWake: () => undefined, onDispose: () => void (disposals += 1) });
    await engine.dispose();
    await engine.dispose();
    engine.addWakeListener({ onWake: () => undefined, onDispose: () => void (disposals += 1) });
    expect(disposals).toBe(2);
  });
});
