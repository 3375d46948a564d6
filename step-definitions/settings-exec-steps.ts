// Steps used by the settings and exec features: the runner's own process.env (SET-03, EXEC-14), the session id
// carried by a foreground call's progress updates (EXEC-32, EXEC-33), tolerant failure checks for `doc` rules
// that do not say whether a failure is thrown or returned, files left behind by commands, executor requests.
import { After, Then, When } from "@cucumber/cucumber";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { inline } from "./support/text.js";
import type { ConformanceWorld } from "./support/world.js";

/** Values of process.env changed by a scenario, restored after it (undefined = was unset). */
const changedProcessEnv = new Map<string, string | undefined>();

When("the runner's own process.env variable {string} is set to {string}", function (this: ConformanceWorld, name: string, value: string) {
  if (!changedProcessEnv.has(name)) changedProcessEnv.set(name, process.env[name]);
  process.env[name] = inline(this, value);
});

After(function () {
  for (const [name, value] of changedProcessEnv) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  changedProcessEnv.clear();
});

When("the session id of the first progress update is remembered as {string}", function (this: ConformanceWorld, name: string) {
  const [update] = this.lastResult().updates;
  assert.ok(update, "the last call received no progress update");
  const id = update.details["sessionId"];
  assert.equal(typeof id, "string", `progress update details: ${JSON.stringify(update.details)}`);
  this.vars.set(name, id as string);
});

Then("the call failed, either rejected or with a failed result", function (this: ConformanceWorld) {
  const outcome = this.lastOutcome();
  this.errorChecked = true;
  if (outcome.kind === "error") return;
  assert.equal(outcome.details["status"], "failed", `the call succeeded: ${JSON.stringify(outcome)}`);
});

Then("the working directory has no file {string}", function (this: ConformanceWorld, path: string) {
  assert.ok(!existsSync(join(this.cwd, path)), `${path} exists in the working directory`);
});

Then("the working directory has a file {string}", function (this: ConformanceWorld, path: string) {
  assert.ok(existsSync(join(this.cwd, path)), `${path} does not exist in the working directory`);
});

Then("the {word} executor received a request without a {string} field", async function (this: ConformanceWorld, host: string, field: string) {
  const instance = await this.ensureStarted();
  assert.ok(instance.executorRequests, "the adapter offers no executorRequests()");
  const requests = (await instance.executorRequests()).filter((request) => request.host === host);
  assert.ok(requests.length > 0, `the ${host} executor received no request`);
  for (const request of requests) {
    assert.equal((request as unknown as Record<string, unknown>)[field], undefined, `request: ${JSON.stringify(request)}`);
  }
});
