// Given steps: the scenario's environment, config, toolkit options and files.
import { Given } from "@cucumber/cucumber";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FakeExecutorSpec } from "../conformance/adapter.js";
import { block, inline, parseJsonArgs } from "./support/text.js";
import type { ConformanceWorld } from "./support/world.js";

Given("the environment variable {string} is {string}", function (this: ConformanceWorld, name: string, value: string) {
  this.env[name] = inline(this, value);
});

Given("the environment variable {string} is unset", function (this: ConformanceWorld, name: string) {
  delete this.env[name];
});

Given("the exec config is:", function (this: ConformanceWorld, json: string) {
  this.config.tools.exec = { ...this.config.tools.exec, ...parseJsonArgs(this, json) };
});

Given("the exec config is {string}", function (this: ConformanceWorld, json: string) {
  this.config.tools.exec = { ...this.config.tools.exec, ...parseJsonArgs(this, json) };
});

Given("the input-wait threshold option is {int} ms", function (this: ConformanceWorld, ms: number) {
  this.inputWaitIdleMs = ms;
});

Given("the retry dedupe window is {int} ms", function (this: ConformanceWorld, ms: number) {
  this.dedupeWindowMs = ms;
});

Given("the scope is {string}", function (this: ConformanceWorld, scope: string) {
  this.scope = scope;
});

Given("the toolkit has no process tool", function (this: ConformanceWorld) {
  this.processTool = false;
});

Given("the toolkit allows elevation", function (this: ConformanceWorld) {
  this.allowElevated = true;
});

Given("the next call is aborted after {int} ms", function (this: ConformanceWorld, ms: number) {
  this.nextAbortAfterMs = ms;
});

Given("the next call's signal is already aborted", function (this: ConformanceWorld) {
  this.nextAbortAfterMs = 0;
});

Given("a fake {word} executor:", function (this: ConformanceWorld, host: string, json: string) {
  if (host !== "node" && host !== "sandbox") throw new Error(`Executors exist for "node" and "sandbox", not "${host}".`);
  this.executors[host] = parseJsonArgs(this, json) as FakeExecutorSpec;
});

// Capability "faults" (scenarios tagged @faults): parts of the implementation made to fail on purpose.
Given("starting a pseudo-terminal fails with {string}", function (this: ConformanceWorld, message: string) {
  this.faults.ptyUnavailable = inline(this, message);
});

Given("starting a plain child process fails with {string}", function (this: ConformanceWorld, message: string) {
  this.faults.spawnUnavailable = inline(this, message);
});

Given("every write to a session's input fails with {string}", function (this: ConformanceWorld, message: string) {
  this.faults.stdinWriteError = inline(this, message);
});

Given("the host's event and wake callbacks throw", function (this: ConformanceWorld) {
  this.faults.throwingCallbacks = true;
});

Given("a file {string} containing:", function (this: ConformanceWorld, path: string, content: string) {
  writeInCwd(this, path, block(this, content), 0o644);
});

Given("an executable file {string} containing:", function (this: ConformanceWorld, path: string, content: string) {
  writeInCwd(this, path, block(this, content), 0o755);
});

Given("a non-executable file {string} containing:", function (this: ConformanceWorld, path: string, content: string) {
  writeInCwd(this, path, block(this, content), 0o644);
});

Given("a directory {string}", function (this: ConformanceWorld, path: string) {
  mkdirSync(join(this.cwd, path), { recursive: true });
});

Given("a symbolic link {string} to {string}", function (this: ConformanceWorld, link: string, target: string) {
  symlinkSync(join(this.cwd, target), join(this.cwd, link));
});

function writeInCwd(world: ConformanceWorld, path: string, content: string, mode: number): void {
  const full = join(world.cwd, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  chmodSync(full, mode);
}
