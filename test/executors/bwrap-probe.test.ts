// src/executors/sandbox/bwrap-probe.ts: the check that bubblewrap runs and can create its namespaces, against fake
// bwrap scripts in a scratch folder; a failure says why in the sandbox-unavailable text, and is not cached.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/engine/errors.js";
import * as messages from "../../src/engine/messages.js";
import { ensureBwrapUsable } from "../../src/executors/sandbox/bwrap-probe.js";
import { cleanUp, scratchDir } from "./helpers.js";

afterEach(cleanUp);

/** A fake bwrap that logs its arguments (one line per run) and then runs `body`; `replace` installs another body. */
function fakeBwrap(body: string, mode = 0o755): { path: string; calls: () => string[]; replace(body: string): void } {
  const dir = scratchDir("probe-");
  const path = join(dir, "bwrap");
  const log = join(dir, "calls");
  const write = (text: string): void => writeFileSync(path, `#!/bin/sh\necho "$*" >> ${log}\n${text}\n`, { mode });
  writeFileSync(log, "");
  write(body);
  return { path, calls: () => readFileSync(log, "utf8").split("\n").filter(Boolean), replace: write };
}

async function rejection(probe: Promise<void>): Promise<ExecProcessError> {
  const error = await probe.then(() => undefined, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(ExecProcessError);
  return error as ExecProcessError;
}

describe("ensureBwrapUsable", () => {
  it("starts bwrap once with the namespaces of a sandbox and resolves when it succeeds", async () => {
    const bwrap = fakeBwrap("exit 0");
    await expect(ensureBwrapUsable(bwrap.path)).resolves.toBeUndefined();
    expect(bwrap.calls()).toEqual([
      "--ro-bind / / --unshare-user --disable-userns --cap-drop ALL --unshare-pid --unshare-ipc --unshare-uts --unshare-net -- true",
    ]);
  });

  it("remembers a success for the same path: a second call starts nothing", async () => {
    const bwrap = fakeBwrap("exit 0");
    const first = ensureBwrapUsable(bwrap.path);
    expect(ensureBwrapUsable(bwrap.path)).toBe(first);
    await first;
    await ensureBwrapUsable(bwrap.path);
    expect(bwrap.calls()).toHaveLength(1);
  });

  it.each<[string, { body: string; mode?: number } | undefined, string]>([
    ["a binary that is missing", undefined, "is not installed or not on PATH"],
    ["a file that cannot be executed", { body: "exit 0", mode: 0o644 }, "could not be started (EACCES)"],
    ["a bwrap that fails and says why", { body: "echo 'bwrap: No permissions to create new namespace' >&2\necho 'second line' >&2\nexit 1" },
      "cannot create namespaces here (bwrap said: No permissions to create new namespace)"],
    ["a bwrap that fails silently", { body: "exit 1" }, "cannot create namespaces here"],
    ["a bwrap that is killed", { body: "kill -s TERM $$" }, "cannot create namespaces here (ended by SIGTERM)"],
  ])("rejects %s with the sandbox-unavailable error", async (_title, script, reason) => {
    const path = script ? fakeBwrap(script.body, script.mode).path : join(scratchDir("probe-missing-"), "bwrap");
    const error = await rejection(ensureBwrapUsable(path));
    expect(error.data).toEqual({ code: "sandbox-unavailable", bwrapPath: path, reason });
    expect(error.message).toBe(messages.sandboxUnavailable(path, reason));
  });

  it("keeps at most 200 characters of bwrap's first line", async () => {
    const bwrap = fakeBwrap(`echo "bwrap: ${"x".repeat(300)}" >&2\nexit 1`);
    const error = await rejection(ensureBwrapUsable(bwrap.path));
    expect(error.data).toEqual({
      code: "sandbox-unavailable", bwrapPath: bwrap.path, reason: `cannot create namespaces here (bwrap said: ${"x".repeat(200)})`,
    });
  });

  it("does not remember a failure: bubblewrap installed while the engine runs is used at the next call", async () => {
    const bwrap = fakeBwrap("exit 1");
    await rejection(ensureBwrapUsable(bwrap.path));
    bwrap.replace("exit 0");
    await expect(ensureBwrapUsable(bwrap.path)).resolves.toBeUndefined();
    expect(bwrap.calls()).toHaveLength(2);
  });
});
