// Then steps on sessions, scopes, events and wakes, observed through the adapter only.
import { Then, When } from "@cucumber/cucumber";
import assert from "node:assert/strict";
import { assertContains, block, inline, parseJsonArgs, partialMatch, show } from "./support/text.js";
import type { ConformanceWorld } from "./support/world.js";

async function assertListed(world: ConformanceWorld, id: string, scope: string, listed: boolean): Promise<void> {
  const ids = await world.listedSessionIds(scope);
  if (ids.includes(id) !== listed) {
    throw new Error(`session ${id} is ${listed ? "not " : ""}listed in scope "${scope}"; listed: ${JSON.stringify(ids)}`);
  }
}
Then("the session is listed", async function (this: ConformanceWorld) {
  await assertListed(this, this.sessionId(), this.scope, true);
});
Then("the session is not listed", async function (this: ConformanceWorld) {
  await assertListed(this, this.sessionId(), this.scope, false);
});
Then("the session {string} is listed in scope {string}", async function (this: ConformanceWorld, name: string, scope: string) {
  await assertListed(this, this.sessionId(name), scope, true);
});
Then("the session {string} is not listed in scope {string}", async function (this: ConformanceWorld, name: string, scope: string) {
  await assertListed(this, this.sessionId(name), scope, false);
});
Then("the list of scope {string} is empty", async function (this: ConformanceWorld, scope: string) {
  assert.deepEqual(await this.listedSessionIds(scope), []);
});

Then("the session is live", async function (this: ConformanceWorld) {
  const live = await (await this.ensureStarted()).liveSessionIds();
  if (!live.includes(this.sessionId())) throw new Error(`session ${this.sessionId()} is not live; liveSessionIds: ${JSON.stringify(live)}`);
});
Then("the session is not live", async function (this: ConformanceWorld) {
  const live = await (await this.ensureStarted()).liveSessionIds();
  if (live.includes(this.sessionId())) throw new Error(`session ${this.sessionId()} is still live; liveSessionIds: ${JSON.stringify(live)}`);
});
Then("no session is live", async function (this: ConformanceWorld) {
  const live = await (await this.ensureStarted()).liveSessionIds();
  if (live.length > 0) throw new Error(`no session should be live; liveSessionIds: ${JSON.stringify(live)}`);
});

Then("the session id matches {string}", function (this: ConformanceWorld, pattern: string) {
  assert.match(this.sessionId(), new RegExp(pattern));
});

When("the events of scope {string} are drained", async function (this: ConformanceWorld, scope: string) {
  this.events = await this.drainEventsAsAgent(scope);
});
When("the events of scope {string} are peeked", async function (this: ConformanceWorld, scope: string) {
  this.events = await (await this.ensureStarted()).peekEvents(scope);
});
Then("{int} event(s) was/were returned", function (this: ConformanceWorld, count: number) {
  assert.equal(this.events.length, count, `events: ${JSON.stringify(this.events)}`);
});
Then("event {int} has text:", function (this: ConformanceWorld, index: number, expected: string) {
  const event = this.events[index - 1];
  assert.ok(event, `there is no event ${index}: ${JSON.stringify(this.events)}`);
  assert.equal(event.text, block(this, expected), `event text ${show(event.text)}`);
});
Then("the text of event {int} contains {string}", function (this: ConformanceWorld, index: number, expected: string) {
  const event = this.events[index - 1];
  assert.ok(event, `there is no event ${index}: ${JSON.stringify(this.events)}`);
  assert.ok(event.text.includes(inline(this, expected)), `event text ${show(event.text)}`);
});
Then("event {int} has fields:", function (this: ConformanceWorld, index: number, json: string) {
  const event = this.events[index - 1];
  assert.ok(event, `there is no event ${index}`);
  const expected = parseJsonArgs(this, json);
  assertContains(event, expected, `event ${index}`);
});
// Absence is read as the agent reads the queue: by draining it (after a peek that must agree).
Then("no event is queued for scope {string}", async function (this: ConformanceWorld, scope: string) {
  assert.deepEqual(await this.drainEventsAsAgent(scope), []);
});

Then("{int} wake request(s) was/were observed", async function (this: ConformanceWorld, count: number) {
  const wakes = await (await this.ensureStarted()).wakes();
  assert.equal(wakes.length, count, `wakes: ${JSON.stringify(wakes)}`);
});
Then("wake request {int} has fields:", async function (this: ConformanceWorld, index: number, json: string) {
  const wakes = await (await this.ensureStarted()).wakes();
  const wake = wakes[index - 1];
  assert.ok(wake, `there is no wake request ${index}: ${JSON.stringify(wakes)}`);
  assertContains(wake, parseJsonArgs(this, json), `wake request ${index}`);
});

When("the finished sessions of scope {string} are cleared", async function (this: ConformanceWorld, scope: string) {
  this.vars.set("clearedCount", String(await (await this.ensureStarted()).clearFinished(scope)));
});
Then("{int} finished session(s) was/were cleared", function (this: ConformanceWorld, count: number) {
  assert.equal(this.vars.get("clearedCount"), String(count));
});

When("the implementation is disposed", async function (this: ConformanceWorld) {
  this.disposedInScenario = true;
  await (await this.ensureStarted()).dispose();
});

Then("the executor received a request containing:", async function (this: ConformanceWorld, json: string) {
  const instance = await this.ensureStarted();
  assert.ok(instance.executorRequests, "the adapter offers no executorRequests()");
  const requests = await instance.executorRequests();
  const expected = parseJsonArgs(this, json);
  assert.ok(requests.some((r) => partialMatch(r, expected)), `requests: ${JSON.stringify(requests)}`);
});
Then("the executor received no request", async function (this: ConformanceWorld) {
  const instance = await this.ensureStarted();
  assert.ok(instance.executorRequests, "the adapter offers no executorRequests()");
  assert.deepEqual(await instance.executorRequests(), []);
});
