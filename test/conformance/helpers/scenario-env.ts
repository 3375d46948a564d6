// A scenario's surroundings as the kit builds them (SPEC §0.8 item 4): temp cwd and home, the controlled
// environment with a marker variable, and the survivor check that proves nothing was left running.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { findSurvivors, killSurvivors } from "../../../step-definitions/support/survivors.js";

export interface ScenarioEnv {
  cwd: string;
  env: Record<string, string>;
  /** Commands of processes still carrying the marker (after a bounded settle); kills them. */
  survivors(): Promise<string[]>;
  cleanup(): void;
}

export function createScenarioEnv(): ScenarioEnv {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "stdio-test-")));
  const cwd = join(root, "work");
  const home = join(root, "home");
  for (const dir of [cwd, home]) mkdirSync(dir);
  const marker = randomUUID();
  return {
    cwd,
    env: {
      PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", HOME: home, SHELL: "/bin/sh", TERM: "dumb",
      LANG: "C.UTF-8", CONFORMANCE_SCENARIO: marker,
    },
    async survivors() {
      const found = await findSurvivors(marker);
      killSurvivors(found);
      return found.map((survivor) => survivor.command);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * A new scenario environment for each test of the calling file or describe block, checked for survivors and
 * removed after it; returns the function that gives the current one.
 */
export function useScenarioEnv(): () => ScenarioEnv {
  let scenario: ScenarioEnv | undefined;
  beforeEach(() => {
    scenario = createScenarioEnv();
  });
  afterEach(async () => {
    expect(await scenario!.survivors()).toEqual([]);
    scenario!.cleanup();
  });
  return () => scenario!;
}
