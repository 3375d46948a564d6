// The two StructuredTools (src/langchain/tools.ts): progress events (LC-17), errors passed through (LC-21), abort
// (LC-22) and concurrent calls (LC-24).
import { ToolInputParsingException } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import {
  call, cwd, detailsOf, newToolkit, sessionIdOf, setupToolkitTests, sleep, textOf, waitForOutput, waitUntilExited,
} from "./helpers.js";

setupToolkitTests();

describe("progress and errors (LC-17, LC-21)", () => {
  it("LC-17: during the foreground window a callback handler receives exec_update custom events with text and details", async () => {
    const toolkit = newToolkit();
    const events: Array<{ name: string; data: { text: string; details: Record<string, unknown> } }> = [];
    const handler = { handleCustomEvent: (name: string, data: unknown) => void events.push({ name, data: data as never }) };
    const result = await call(toolkit.exec, { command: "echo one; sleep 0.3; echo two" }, { callbacks: [handler] });
    expect(textOf(result)).toBe("one\ntwo");
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.name === "exec_update")).toBe(true);
    expect(events.map((event) => event.data.text)).toContain("one\n");
    expect(events[0]?.data.details).toMatchObject({ status: "running", cwd, tail: "one\n" });
    expect(Object.keys(events[0]!.data.details).sort()).toEqual(["cwd", "pid", "sessionId", "startedAt", "status", "tail"]);
    // That none comes after the result is the next test's: its output arrives while the session runs on.
  });

  it("LC-17: no exec_update is sent after a running result was returned", async () => {
    const toolkit = newToolkit();
    const events: string[] = [];
    const handler = { handleCustomEvent: (name: string) => void events.push(name) };
    const started = await call(toolkit.exec, { command: "sleep 0.1; echo later; sleep 30", background: true }, { callbacks: [handler] });
    const id = sessionIdOf(started);
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: id, timeout: 3000 }))).toBe("later\n\nProcess still running.");
    expect(events).toEqual([]);
  });

  it.each([
    [{ command: "true", host: "x" }, 'Invalid exec host "x". Allowed values: auto, sandbox, gateway, node.'],
    [{ command: "" }, "Provide a command to start."],
    [{ command: "true", host: "node" }, 'exec host "node" is not available: no executor is registered for it.'],
    [{ command: "true", env: { PATH: "/x" } }, "Security Violation: Custom 'PATH' variable is forbidden during host execution."],
    [{ command: "true", env: { LD_PRELOAD: "/x.so" } }, "Security Violation: Environment variable 'LD_PRELOAD' is forbidden during host execution."],
  ])("LC-21: exec %j rejects with the engine's exact message", async (args, message) => {
    const toolkit = newToolkit();
    const rejection = toolkit.exec.invoke({ type: "tool_call", id: "e", name: "exec", args });
    await expect(rejection).rejects.toBeInstanceOf(Error);
    await expect(rejection).rejects.not.toBeInstanceOf(ToolInputParsingException);
    await expect(rejection).rejects.toThrow(message);
    await expect(rejection.catch((error: Error) => error.message)).resolves.toBe(message);
  });

  it("LC-21: calls after engine disposal reject with a message about the disposal", async () => {
    const toolkit = newToolkit();
    await toolkit.engine.dispose();
    await expect(toolkit.exec.invoke({ command: "echo late" })).rejects.toThrow(/disposed/);
    await expect(toolkit.process!.invoke({ action: "list" })).rejects.toThrow(/disposed/);
  });
});

describe("abort (LC-22)", () => {
  it("LC-22: aborting config.signal ends a foreground exec, rejects the invocation and discards the session", async () => {
    const toolkit = newToolkit();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const rejection = toolkit.exec.invoke({ command: "sleep 30", yieldMs: 60000 }, { signal: controller.signal });
    await expect(rejection).rejects.toMatchObject({ name: "AbortError", message: "Tool execution was aborted" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
    expect(textOf(await call(toolkit.process, { action: "list" }))).toBe("No running or recent sessions.");
  });

  it("LC-22: an already aborted signal rejects exec without leaving a process", async () => {
    const toolkit = newToolkit();
    await expect(toolkit.exec.invoke({ command: "sleep 30" }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
  });

  it("LC-22: aborting a waiting poll rejects it without consuming output and leaves the session running", async () => {
    const toolkit = newToolkit();
    const id = sessionIdOf(await call(toolkit.exec, { command: "echo ready; sleep 30", background: true }));
    await waitForOutput(toolkit, id, "ready");
    await expect(toolkit.process!.invoke({ action: "poll", sessionId: id }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: id }))).toBe("ready\n\nProcess still running.");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    await expect(toolkit.process!.invoke({ action: "poll", sessionId: id, timeout: 20000 }, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(toolkit.engine.liveSessionIds()).toEqual([id]);
  });

  it("LC-22: aborting after the running result was returned does not touch the backgrounded session", async () => {
    const toolkit = newToolkit();
    const background = new AbortController();
    const yielded = new AbortController();
    const first = sessionIdOf(await call(toolkit.exec, { command: "sleep 0.8; echo alive-1", background: true }, { signal: background.signal }));
    const second = sessionIdOf(await call(toolkit.exec, { command: "sleep 0.8; echo alive-2", yieldMs: 50 }, { signal: yielded.signal }));
    background.abort();
    yielded.abort();
    await sleep(100);
    expect(toolkit.engine.liveSessionIds().sort()).toEqual([first, second].sort());
    await waitUntilExited(toolkit.engine, first);
    await waitUntilExited(toolkit.engine, second);
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: first }))).toBe("alive-1\n\nProcess exited with code 0.");
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: second }))).toBe("alive-2\n\nProcess exited with code 0.");
  });
});

describe("concurrency (LC-24)", () => {
  it("LC-24: concurrent polls of the same session return distinct output, no line twice and none lost", async () => {
    const toolkit = newToolkit();
    const command = "i=1; while [ $i -le 150 ]; do echo line-$i; i=$((i+1)); sleep 0.002; done";
    const id = sessionIdOf(await call(toolkit.exec, { command, background: true }));
    const outputs: string[] = [];
    let finished = false;
    while (!finished) {
      const pair = await Promise.all([0, 1].map(() => call(toolkit.process, { action: "poll", sessionId: id, timeout: 200 })));
      for (const result of pair) {
        const text = textOf(result);
        if (detailsOf(result)["status"] !== "running") finished = true;
        const body = text.replace(/\n\n(Process still running\.|Process exited with code 0\.)$/, "");
        if (body !== "(no new output)") outputs.push(body);
      }
    }
    const lines = outputs.join("\n").split("\n");
    expect(lines).toHaveLength(150);
    expect(new Set(lines).size).toBe(150);
    expect([...lines].sort()).toEqual(Array.from({ length: 150 }, (_, i) => `line-${i + 1}`).sort());
  });

  it("LC-24: a waiting poll of one session does not hold up a poll of another session", async () => {
    const toolkit = newToolkit();
    const quiet = sessionIdOf(await call(toolkit.exec, { command: "sleep 30", background: true }));
    const chatty = sessionIdOf(await call(toolkit.exec, { command: "echo b-ready; sleep 30", background: true }));
    await waitForOutput(toolkit, chatty, "b-ready");
    const started = Date.now();
    const finishedAt: Record<string, number> = {};
    const timed = (id: string, args: Record<string, unknown>) =>
      call(toolkit.process, { action: "poll", sessionId: id, ...args }).then((result) => {
        finishedAt[id] = Date.now() - started;
        return result;
      });
    const [waiting, immediate] = await Promise.all([timed(quiet, { timeout: 1500 }), timed(chatty, {})]);
    expect(textOf(immediate)).toBe("b-ready\n\nProcess still running.");
    expect(textOf(waiting)).toBe("(no new output)\n\nProcess still running.");
    expect(finishedAt[quiet]).toBeGreaterThanOrEqual(1400);
    expect(finishedAt[chatty]).toBeLessThan(finishedAt[quiet]! - 500);
  });
});
