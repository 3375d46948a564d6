// Engine results as LangChain tool output (src/langchain/tool-output.ts): content and artifact (LC-16), and the
// ToolMessage status of failures (LC-20).
import { ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { call, cwd, detailsOf, newToolkit, RUNNING_TEXT, sessionIdOf, setupToolkitTests, textOf } from "./helpers.js";

setupToolkitTests();

describe("tool output (LC-16, LC-20)", () => {
  it("LC-16: a ToolCall invocation yields a ToolMessage with the text as content and the details as artifact", async () => {
    const toolkit = newToolkit();
    const result = await toolkit.exec.invoke({ type: "tool_call", id: "call-echo", name: "exec", args: { command: "echo hello" } });
    expect(result).toBeInstanceOf(ToolMessage);
    const message = result as ToolMessage;
    expect(message.content).toBe("hello");
    expect(message.tool_call_id).toBe("call-echo");
    expect(message.name).toBe("exec");
    expect(message.artifact).toMatchObject({ status: "completed", exitCode: 0, exitSignal: null, exitReason: "exit", aggregated: "hello", cwd });
  });

  it("LC-16: a plain-arguments invocation returns the text only, for both tools and for failures", async () => {
    const toolkit = newToolkit();
    expect(await toolkit.exec.invoke({ command: "echo hello" })).toBe("hello");
    expect(await toolkit.exec.invoke({ command: "exit 127" })).toBe("Command not found");
    expect(await toolkit.process!.invoke({ action: "list" })).toBe("No running or recent sessions.");
    expect(await toolkit.process!.invoke({ action: "poll", sessionId: "nope-nope" })).toBe("No session found for nope-nope");
  });

  it.each([
    ["a non-zero exit", "echo nope; exit 3", "success", "completed"],
    ["exit 127", "exit 127", "error", "failed"],
    ["exit 126", "exit 126", "error", "failed"],
    ["a signal", "kill -9 $$", "error", "failed"],
    ["success", "echo fine", "success", "completed"],
  ])("LC-20: %s gives a ToolMessage with status %s (details.status %s)", async (_label, command, status, detailsStatus) => {
    const result = await call(newToolkit().exec, { command });
    expect(result.status).toBe(status);
    expect(detailsOf(result)["status"]).toBe(detailsStatus);
  });

  it("LC-20: running results and successful process actions are success, returned process failures are errors", async () => {
    const toolkit = newToolkit();
    const started = await call(toolkit.exec, { command: "sleep 30", background: true });
    expect(started.status).toBe("success");
    expect(textOf(started)).toBe(RUNNING_TEXT(sessionIdOf(started), detailsOf(started)["pid"]));
    expect((await call(toolkit.process, { action: "list" })).status).toBe("success");
    expect((await call(toolkit.process, { action: "poll", sessionId: sessionIdOf(started) })).status).toBe("success");
    const missing = await call(toolkit.process, { action: "poll" });
    expect(missing.status).toBe("error");
    expect(textOf(missing)).toBe("sessionId is required for this action.");
    expect(detailsOf(missing)).toEqual({ status: "failed", error: "sessionId is required for this action." });
    const timedOut = await call(toolkit.exec, { command: "sleep 5", timeoutSeconds: 0.2 });
    expect(timedOut.status).toBe("error");
    expect(detailsOf(timedOut)).toMatchObject({ status: "failed", timedOut: true });
  });
});
