// The liveness check of the leftover sweep: only an owner on this machine whose process is gone counts as dead.
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { expect, it } from "vitest";
import { ownerGone, ownerId } from "../../src/executors/container/container-leftovers.js";

it("knows this process alive and a finished one gone; owners elsewhere are never judged", () => {
  expect(ownerId()).toBe(`${hostname()}:${process.pid}`);
  expect(ownerGone(ownerId())).toBe(false);
  const finished = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim();
  expect(ownerGone(`${hostname()}:${finished}`)).toBe(true);
  expect(ownerGone(`another-machine:${finished}`)).toBe(false);
  expect(ownerGone(undefined)).toBe(false);
});
