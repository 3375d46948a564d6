// When steps: calling the tools, in the foreground or as started calls that are awaited later.
import { When } from "@cucumber/cucumber";
import { parseJsonArgs, inline } from "./support/text.js";
import type { CallTool } from "../conformance/adapter.js";
import type { ConformanceWorld } from "./support/world.js";

type Tool = CallTool;

for (const tool of ["exec", "process", "watch"] as const) {
  When(`${tool} is called with:`, async function (this: ConformanceWorld, json: string) {
    await this.call(tool, parseJsonArgs(this, json));
  });
  When(`${tool} is called with {string}`, async function (this: ConformanceWorld, json: string) {
    await this.call(tool, parseJsonArgs(this, json));
  });
  When(`${tool} is called in scope {string} with:`, async function (this: ConformanceWorld, scope: string, json: string) {
    await this.call(tool, parseJsonArgs(this, json), scope);
  });
  When(`${tool} is called in scope {string} with {string}`, async function (this: ConformanceWorld, scope: string, json: string) {
    await this.call(tool, parseJsonArgs(this, json), scope);
  });
  When(`${tool} is started with:`, async function (this: ConformanceWorld, json: string) {
    await startNamed(this, "call", tool, parseJsonArgs(this, json));
  });
  When(`${tool} is started with {string}`, async function (this: ConformanceWorld, json: string) {
    await startNamed(this, "call", tool, parseJsonArgs(this, json));
  });
  When(`${tool} is started as {string} with:`, async function (this: ConformanceWorld, name: string, json: string) {
    await startNamed(this, name, tool, parseJsonArgs(this, json));
  });
  When(`${tool} is started as {string} with {string}`, async function (this: ConformanceWorld, name: string, json: string) {
    await startNamed(this, name, tool, parseJsonArgs(this, json));
  });
}

When("exec runs {string}", async function (this: ConformanceWorld, command: string) {
  await this.call("exec", { command: inline(this, command) });
});

When("exec runs {string} in the background", async function (this: ConformanceWorld, command: string) {
  await this.call("exec", { command: inline(this, command), background: true });
});

When("exec runs {string} in a pty in the background", async function (this: ConformanceWorld, command: string) {
  await this.call("exec", { command: inline(this, command), background: true, pty: true });
});

When("the session is polled", async function (this: ConformanceWorld) {
  await this.call("process", { action: "poll", sessionId: this.sessionId() });
});

When("the session is polled with timeout {int}", async function (this: ConformanceWorld, timeout: number) {
  await this.call("process", { action: "poll", sessionId: this.sessionId(), timeout });
});

When("the session log is read", async function (this: ConformanceWorld) {
  await this.call("process", { action: "log", sessionId: this.sessionId() });
});

When("the sessions are listed", async function (this: ConformanceWorld) {
  await this.call("process", { action: "list" });
});

When("the sessions of scope {string} are listed", async function (this: ConformanceWorld, scope: string) {
  await this.call("process", { action: "list" }, scope);
});

When("the session is killed", async function (this: ConformanceWorld) {
  await this.call("process", { action: "kill", sessionId: this.sessionId() });
});

When("the started call returns", async function (this: ConformanceWorld) {
  await awaitNamed(this, "call");
});

When("the started call {string} returns", async function (this: ConformanceWorld, name: string) {
  await awaitNamed(this, name);
});

// Names the placeholders already stand for: remembered under one of them, an id would never be substituted.
const RESERVED_NAMES = new Set(["G", "H", "id", "id8", "cwd", "home"]);

When("the session id is remembered as {string}", function (this: ConformanceWorld, name: string) {
  if (RESERVED_NAMES.has(name)) throw new Error(`"${name}" is a placeholder of its own (<${name}>); remember the id under another name.`);
  this.vars.set(name, this.sessionId());
});

/**
 * Begins a call without waiting for it. The implementation's start is awaited first, so that the timing steps that
 * follow ("N ms pass") measure only the call, never a slow start-up.
 */
async function startNamed(world: ConformanceWorld, name: string, tool: Tool, args: Record<string, unknown>): Promise<void> {
  if (world.started.has(name)) throw new Error(`A started call named "${name}" is still pending.`);
  await world.ensureStarted();
  world.started.set(name, world.startCall(tool, args));
}

async function awaitNamed(world: ConformanceWorld, name: string): Promise<void> {
  const pending = world.started.get(name);
  if (!pending) throw new Error(`No call was started as "${name}".`);
  world.started.delete(name);
  world.record(await pending);
}
