// Strings no operating system can pass to a new process are refused before anything spawns, with the same text for
// pipes and PTY: a NUL byte in command, workdir or an env value, and arguments or environments over the exec limits
// (E2BIG). Texts name the parameter and the limit and never show Node internals.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { ctx, disposeEngines, newEngine, readProcTable, tempDir, textOf, waitUntil } from "../reliability/helpers.js";

afterEach(disposeEngines);

const MARK = "touch made";
const NODE_INTERNALS = /ERR_|args\[|spawn |execvp|node:|\.js|\bat \//;

/** Runs one exec in a fresh cwd; returns the rejection message (or the returned text) and whether it spawned. */
async function attempt(params: Record<string, unknown>): Promise<{ text: string; rejected: boolean; spawned: boolean }> {
  const dir = tempDir("unsafe-");
  const engine = newEngine({ cwd: dir });
  const before = new Set(liveChildren()); // the worker runs other files too: their children are not this attempt's
  let text: string;
  let rejected = false;
  try {
    text = textOf(await engine.exec(params, ctx));
  } catch (error) {
    rejected = true;
    text = (error as Error).message;
  }
  expect(engine.liveSessionIds()).toEqual([]);
  // A wrongly started command is a child of this process until it has run: once there is none, it made the file or
  // never ran.
  const started = () => liveChildren().filter((pid) => !before.has(pid));
  expect(await waitUntil(() => started().length === 0, 10_000), `children left: ${started().join(", ")}`).toBe(true);
  return { text, rejected, spawned: existsSync(join(dir, "made")) };
}

/** Processes (not zombies) whose parent is this test process. */
const liveChildren = (): number[] =>
  readProcTable().filter((entry) => entry.state !== "Z" && entry.ppid === process.pid).map((entry) => entry.pid);

describe.each([false, true])("unsafe strings with pty: %s", (pty) => {
  it("refuses a NUL byte in command, naming command and the position", async () => {
    const outcome = await attempt({ command: `${MARK}; echo a\u0000b`, pty, host: "bogus" }); // checked with the command
    expect(outcome).toEqual({ text: messages.nulByteIn("command", 18), rejected: true, spawned: false });
  });

  it("refuses a NUL byte in an env value, naming the key", async () => {
    const outcome = await attempt({ command: MARK, pty, env: { GREETING: "hi\u0000there" } });
    expect(outcome).toEqual({ text: messages.nulByteIn('env "GREETING"', 2), rejected: true, spawned: false });
  });

  it("returns a NUL byte in workdir as a working-directory failure, before the environment is checked", async () => {
    const dir = tempDir("unsafe-");
    const engine = newEngine({ cwd: dir });
    const result = await engine.exec({ command: MARK, pty, workdir: "sub\u0000dir", env: { LD_PRELOAD: "/x.so" } }, ctx);
    expect(textOf(result)).toBe(messages.nulByteIn("workdir", 3));
    expect(result.details).toMatchObject({ status: "failed", failureKind: "runtime-error", exitCode: null });
    expect(existsSync(join(dir, "made"))).toBe(false);
  });

  it("refuses a 3 MB command, naming the single-argument limit", async () => {
    const command = `${MARK}; : ${"x".repeat(3_000_000)}`;
    const outcome = await attempt({ command, pty });
    expect(outcome).toEqual({
      text: messages.argumentTooLarge("command", Buffer.byteLength(command), 131_072), rejected: true, spawned: false,
    });
    expect(outcome.text).not.toMatch(NODE_INTERNALS);
  });

  it("refuses an environment whose total is over the limit for a new process, naming that limit", async () => {
    const env = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`BIG_${i}`, "y".repeat(100_000)]));
    const outcome = await attempt({ command: MARK, pty, env });
    expect(outcome.rejected).toBe(true);
    expect(outcome.spawned).toBe(false);
    expect(outcome.text).toMatch(/^command and environment together are \d+ bytes, over the operating system's limit of \d+ bytes for a new process \(ARG_MAX/);
    expect(outcome.text).not.toMatch(NODE_INTERNALS);
  });

  it("still runs a command just under the single-argument limit", async () => {
    const dir = tempDir("unsafe-");
    const engine = newEngine({ cwd: dir });
    const command = `printf ok; : ${"x".repeat(100_000)}`;
    const result = await engine.exec({ command, pty }, ctx);
    expect(result.details.status).toBe("completed");
    expect(textOf(result)).toContain("ok");
  }, 30_000);
});
