// Steps that let time pass or wait for an observable state, always with a bound.
import { When } from "@cucumber/cucumber";
import { CHECK_EVERY_MS, FINISH_LIMIT_MS, sleep, waitUntilNotLive } from "./support/waits.js";
import type { ConformanceWorld } from "./support/world.js";


When("{int} ms pass(es)", async function (this: ConformanceWorld, ms: number) {
  await sleep(ms);
});

When("{float} seconds pass", async function (this: ConformanceWorld, seconds: number) {
  await sleep(seconds * 1000);
});

const waitUntilFinished = (world: ConformanceWorld, name: string): Promise<void> => waitUntilNotLive(world, world.sessionId(name));

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

// Waits for the command's output, not for a fixed time: a host that starts slowly (a sandbox on a loaded machine)
// then still gets the scenario's whole silence after it. `log` changes nothing a later step reads (LOG-01).
When("the session's log shows {string}", async function (this: ConformanceWorld, text: string) {
  const deadline = Date.now() + FINISH_LIMIT_MS;
  for (;;) {
    const { outcome } = await this.startCall("process", { action: "log", sessionId: this.sessionId() });
    const shown = outcome.kind === "result" ? outcome.text : "";
    if (shown.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`The session's log did not show ${JSON.stringify(text)} within ${FINISH_LIMIT_MS} ms; it showed ${JSON.stringify(shown)}.`);
    await sleep(CHECK_EVERY_MS);
  }
});
