// Hooks that guard the suite (SPEC §0.8 item 4): a fresh instance, temp cwd and controlled environment per
// scenario; afterwards dispose, prove that no process of the scenario survives, and fail unchecked rejections.
import { After, AfterAll, Before, BeforeAll, setDefaultTimeout, type ITestCaseHookParameter } from "@cucumber/cucumber";
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Capability, ConformanceAdapter } from "../../conformance/adapter.js";
import { loadAdapterFromEnvironment, recordAdapterName } from "../../conformance/load-adapter.js";
import { makeTempFolder, removeTempFolder } from "../../conformance/temp-folders.js";
import { findSurvivors, killSurvivors, markPids } from "./survivors.js";
import { assertSameEvents, type ConformanceWorld } from "./world.js";

setDefaultTimeout(90_000);

// A worker whose kit has gone (killed, or crashed) ends at once, instead of running its scenario on with no one to
// report to. Exiting ends what the scenario started: the engine's host-end cleanup in-process, end of input for an
// implementation over stdio or MCP.
if (process.env["CUCUMBER_WORKER_ID"] !== undefined) process.once("disconnect", () => process.exit(1));

let adapter: ConformanceAdapter | undefined;

BeforeAll(async function () {
  adapter = await loadAdapterFromEnvironment();
  recordAdapterName(adapter.name);
});

// A worker ends its process once its last scenario is over: what the adapter kept across scenarios ends first.
AfterAll(async function () {
  await adapter?.close?.();
});

const CAPABILITY_TAGS: Record<string, Capability> = {
  "@pty": "pty", "@executor": "executor", "@bridge": "bridge", "@faults": "faults",
  "@langchain": "langchain", "@watch": "watch", "@dedupe": "dedupe",
};

Before(function (this: ConformanceWorld, { pickle }: ITestCaseHookParameter) {
  if (!adapter) throw new Error("No adapter was loaded.");
  this.adapter = adapter;
  const tags = pickle.tags.map((tag) => tag.name);
  for (const tag of tags) {
    const capability = CAPABILITY_TAGS[tag];
    if (capability && !this.hasCapability(capability)) {
      // Shown in cucumber.html under the skipped scenario, which would otherwise read as a bare SKIPPED.
      this.log(`not applicable (capability ${capability} missing)`);
      return "skipped";
    }
  }
  this.pty = tags.includes("@pty");
  // Removed in After, or when the worker ends first (its kit killed): temp-folders.ts.
  const root = makeTempFolder("exec-conformance-");
  this.tempDirs.push(root);
  this.cwd = join(root, "work");
  const home = join(root, "home");
  for (const dir of [this.cwd, home]) mkdirSync(dir, { recursive: true });
  this.marker = randomUUID();
  this.pidMark = markPids(); // before anything of the scenario can start a process
  this.env = {
    PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    SHELL: "/bin/sh",
    TERM: "dumb",
    LANG: "C.UTF-8",
    CONFORMANCE_SCENARIO: this.marker,
  };
  return undefined;
});

After(async function (this: ConformanceWorld) {
  await Promise.allSettled([...this.started.values()]);
  const disagreement = this.instance ? await eventQueuesDisagree(this) : undefined;
  if (this.instance) {
    await this.instance.dispose();
    await this.instance.close?.();
  }
  const survivors = this.marker ? await findSurvivors(this.marker, this.pidMark) : [];
  if (survivors.length > 0) killSurvivors(survivors);
  for (const dir of this.tempDirs) removeTempFolder(dir);
  if (survivors.length > 0) {
    throw new Error(`Processes started by this scenario survived disposal: ${survivors.map((s) => `${s.pid} ${s.command}`).join("; ")}`);
  }
  if (disagreement) throw new Error(disagreement);
  const unchecked = [...this.uncheckedRejections];
  if (!this.errorChecked && this.last?.outcome.kind === "error") unchecked.push(this.last.outcome.message);
  if (unchecked.length > 0) throw new Error(`A call was rejected and no step checked it: ${unchecked.join(" | ")}`);
});

/**
 * What is still queued at the end, peeked then drained in every scope the scenario used: the two must agree. While
 * a session is live, its exit event may be queued between the two calls of an out-of-process implementation, so
 * then the drained events need only start with the peeked ones.
 */
async function eventQueuesDisagree(world: ConformanceWorld): Promise<string | undefined> {
  const instance = world.instance;
  if (!instance || world.disposedInScenario) return undefined;
  for (const scope of world.scopesUsed) {
    const sessionLive = (await instance.liveSessionIds()).length > 0;
    const peeked = await instance.peekEvents(scope);
    try {
      const drained = await instance.drainEvents(scope);
      assertSameEvents(scope, peeked, sessionLive ? drained.slice(0, peeked.length) : drained);
    } catch (error) {
      return (error as Error).message;
    }
  }
  return undefined;
}
