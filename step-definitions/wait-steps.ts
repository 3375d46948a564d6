// Steps that let time pass or wait for an observable state, always with a bound.
import { When } from "@cucumber/cucumber";
import type { ConformanceWorld } from "./support/world.js";

const FINISH_LIMIT_MS = 60_000;
const CHECK_EVERY_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

When("{int} ms pass(es)", async function (this: ConformanceWorld, ms: number) {
  await sleep(ms);
});

When("{float} seconds pass", async function (this: ConformanceWorld, seconds: number) {
  await sleep(seconds * 1000);
});

/** Waits until the session's process is confirmed exited (it leaves liveSessionIds, REG-14). */
async function waitUntilFinished(world: ConformanceWorld, name: string): Promise<void> {
  const id = world.sessionId(name);
  const instance = await world.ensureStarted();
  const deadline = Date.now() + FINISH_LIMIT_MS;
  while ((await instance.liveSessionIds()).includes(id)) {
    if (Date.now() > deadline) throw new Error(`Session ${id} was still live after ${FINISH_LIMIT_MS} ms.`);
    await sleep(CHECK_EVERY_MS);
  }
}

When("the session finishes", async function (this: ConformanceWorld) {
  await waitUntilFinished(this, "id");
});

When("the session {string} finishes", async function (this: ConformanceWorld, name: string) {
  await waitUntilFinished(this, name);
});

When("an event is queued for scope {string}", async function (this: ConformanceWorld, scope: string) {
  const instance = await this.ensureStarted();
  const deadline = Date.now() + FINISH_LIMIT_MS;
  while ((await instance.peekEvents(scope)).length === 0) {
    if (Date.now() > deadline) throw new Error(`No event was queued for scope ${scope} within ${FINISH_LIMIT_MS} ms.`);
    await sleep(CHECK_EVERY_MS);
  }
});
