// Concurrency (POLL-09, POLL-12, POLL-14, POLL-21, KILL-06, LC-24): calls racing each other and the process. Each
// race has one documented outcome (or a documented set of consistent ones) and never loses or repeats output.
import { afterEach, describe, expect, it } from "vitest";
import type { LocalSessionEngine, ToolResult } from "../../src/engine/index.js";
import { SCOPE, ctx, disposeEngines, newEngine, sessionIdOf, sleep, textOf, waitUntil } from "./helpers.js";

afterEach(disposeEngines);

const RUNNING = "\n\nProcess still running.";
const NO_NEW_OUTPUT = "(no new output)";

/** The output part of a running or terminal poll text (no notes are expected in these tests). */
function bodyOf(result: ToolResult): string {
  const text = textOf(result);
  const end = text.lastIndexOf("\n\nProcess ");
  const body = end >= 0 ? text.slice(0, end) : text;
  return body === NO_NEW_OUTPUT ? "" : body;
}

async function background(engine: LocalSessionEngine, command: string): Promise<string> {
  return sessionIdOf(await engine.exec({ command, background: true }, ctx));
}

/** Polls until the terminal result; returns every result in order. */
async function pollAll(engine: LocalSessionEngine, sessionId: string, timeout = 5_000): Promise<ToolResult[]> {
  const results: ToolResult[] = [];
  for (;;) {
    const result = await engine.process({ action: "poll", sessionId, timeout }, ctx);
    results.push(result);
    if (result.details.status !== "running") return results;
  }
}

describe("two polls waiting on one session", () => {
  // Both waiters wake on the first output; the first to resume (the earlier caller) drains it, the other finds nothing
  // pending and keeps waiting, within its own deadline, for the next output.
  it("each output goes to exactly one of them: the first waiter gets `one`, the second `two`", async () => {
    const engine = newEngine();
    const id = await background(engine, "sleep 0.3; echo one; sleep 0.3; echo two; sleep 30");
    const [first, second] = await Promise.all([
      engine.process({ action: "poll", sessionId: id, timeout: 10_000 }, ctx),
      engine.process({ action: "poll", sessionId: id, timeout: 10_000 }, ctx),
    ]);
    expect(textOf(first)).toBe(`one${RUNNING}`);
    expect(textOf(second)).toBe(`two${RUNNING}`);
    await engine.process({ action: "kill", sessionId: id }, ctx);
    const rest = await pollAll(engine, id);
    expect(rest.map(textOf)).toEqual([`${NO_NEW_OUTPUT}\n\nProcess stopped by request (signal SIGTERM).`]);
  });

  it("three pollers draining one numbered stream share it without a gap or a repeat (POLL-21, LC-24)", async () => {
    const engine = newEngine();
    const id = await background(engine, "i=0; while [ $i -lt 60 ]; do i=$((i+1)); echo $i; sleep 0.01; done");
    const pollers = await Promise.all([0, 1, 2].map(() => pollAll(engine, id, 1_000)));
    const received = pollers.flat().map(bodyOf).filter(Boolean).flatMap((body) => body.split("\n")).map(Number);
    expect([...received].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (const results of pollers) {
      const own = results.map(bodyOf).filter(Boolean).flatMap((body) => body.split("\n")).map(Number);
      expect(own).toEqual([...own].sort((a, b) => a - b)); // each poller sees its share in arrival order
    }
  });
});

describe("a poll racing the exit", () => {
  // Whether the output arrives in a running poll or in the terminal one, it arrives exactly once, and only the
  // last poll is terminal; polls after it repeat the exit line with no output (POLL-14).
  it.each(Array.from({ length: 12 }, (_, i) => i * 2))("after %i ms: `out` exactly once, then the exit code", async (delayMs) => {
    const engine = newEngine();
    const id = await background(engine, "echo out; exit 3");
    await sleep(delayMs);
    const results = await pollAll(engine, id);
    expect(results.map(bodyOf).join("")).toBe("out");
    expect(results.slice(0, -1).every((r) => textOf(r).endsWith(RUNNING))).toBe(true);
    expect(textOf(results.at(-1)!).endsWith("\n\nProcess exited with code 3.")).toBe(true);
    const again = await engine.process({ action: "poll", sessionId: id, timeout: 1_000 }, ctx);
    expect(textOf(again)).toBe(`${NO_NEW_OUTPUT}\n\nProcess exited with code 3.`);
  });
});

describe("kill racing the natural exit", () => {
  // Outcomes: kill finds the session finished → "No active session", the exit is reported as is and notified; or
  // kill lands first → a confirmed stop (KILL-06) labelled by what the process reported (SIGTERM, or code 0 when it
  // had already exited on its own before the signal arrived), never notified (KILL-07). `bye` appears at most once.
  it.each(Array.from({ length: 16 }, (_, i) => i * 8))("kill after %i ms gives one consistent outcome", async (delayMs) => {
    const engine = newEngine();
    const id = await background(engine, "sleep 0.05; echo bye");
    await sleep(delayMs);
    const kill = textOf(await engine.process({ action: "kill", sessionId: id }, ctx));
    await waitUntil(() => !engine.liveSessionIds().includes(id), 15_000);
    const notified = engine.peekSystemEvents(SCOPE).some((event) => event.sessionId === id);
    const results = await pollAll(engine, id);
    const output = results.map(bodyOf).join("");
    const exitLine = textOf(results.at(-1)!).slice(textOf(results.at(-1)!).lastIndexOf("\n\n") + 2);
    if (kill === `No active session found for ${id}`) {
      expect({ output, exitLine, notified }).toEqual({ output: "bye", exitLine: "Process exited with code 0.", notified: true });
    } else {
      expect(kill).toBe(`Termination requested for session ${id}.`);
      expect(["", "bye"]).toContain(output);
      expect(["Process stopped by request (signal SIGTERM).", "Process stopped by request (code 0)."]).toContain(exitLine);
      expect(notified).toBe(false);
    }
  });
});

describe("remove during a waiting poll", () => {
  it("the waiting poll returns `No session found` at once; the id stays live until the process exited (POLL-12, PROC-14)", async () => {
    const engine = newEngine();
    const id = await background(engine, "trap '' TERM; sleep 30 & wait");
    const waiting = engine.process({ action: "poll", sessionId: id, timeout: 25_000 }, ctx);
    await sleep(100);
    expect(textOf(await engine.process({ action: "remove", sessionId: id }, ctx))).toBe(`Removed session ${id} (termination requested).`);
    expect(textOf(await waiting)).toBe(`No session found for ${id}`);
    expect(engine.liveSessionIds()).toContain(id); // SIGTERM is ignored: alive until the SIGKILL after the grace
    expect(textOf(await engine.process({ action: "log", sessionId: id }, ctx))).toBe(`No session found for ${id}`);
    expect(textOf(await engine.process({ action: "list" }, ctx))).toBe("No running or recent sessions.");
    expect(await waitUntil(() => !engine.liveSessionIds().includes(id), 15_000)).toBe(true);
    expect(textOf(await engine.process({ action: "poll", sessionId: id }, ctx))).toBe(`No session found for ${id}`);
  }, 30_000);
});
