// Arguments that do not match a tool's schema are refused with LangChain's ToolInputParsingException before anything
// runs (src/langchain/schema-errors.ts: LC-13).
import { ToolInputParsingException, type StructuredTool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import { newToolkit, setupToolkitTests } from "./helpers.js";

setupToolkitTests();

describe("schema violations (LC-13)", () => {
  it.each([
    ["exec", { command: "true", yieldMs: "100" }],
    ["exec", { command: "true", timeoutSeconds: "5" }],
    ["exec", { command: "true", timeout: "5" }],
    ["exec", { command: 42 }],
    ["exec", { command: "true", background: "yes" }],
    ["process", { action: "log", sessionId: "x", offset: "1" }],
    ["process", { action: "log", sessionId: "x", limit: "2" }],
    ["process", { action: "send-keys", sessionId: "x", keys: "Enter" }],
  ])("LC-13: %s rejects %j with LangChain's ToolInputParsingException and spawns nothing", async (name, args) => {
    const toolkit = newToolkit();
    const tool: StructuredTool = name === "exec" ? toolkit.exec : toolkit.process!;
    await expect(tool.invoke({ type: "tool_call", id: "bad", name, args })).rejects.toBeInstanceOf(ToolInputParsingException);
    await expect(tool.invoke(args as never)).rejects.toBeInstanceOf(ToolInputParsingException);
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
  });
});

describe("schema violations as error data", () => {
  it("carry code invalid-input, the tool and each wrong field's path, and keep the one-line text", async () => {
    const toolkit = newToolkit();
    const rejection = await toolkit.exec.invoke({ command: 42, env: { A: 1 } } as never).catch((error: unknown) => error);

    expect(rejection).toBeInstanceOf(ToolInputParsingException);
    expect(ExecProcessError.is(rejection, "invalid-input")).toBe(true);
    expect(ExecProcessError.is(rejection, "invalid-host")).toBe(false);
    if (!ExecProcessError.is(rejection, "invalid-input")) return;
    expect(rejection.code).toBe("invalid-input");
    expect(rejection.data).toEqual({
      code: "invalid-input", tool: "exec",
      issues: [{ path: ["command"], message: "expected string, received number" }, { path: ["env", "A"], message: "expected string, received number" }],
    });
    expect(rejection.message).toBe(
      "Invalid exec arguments: command: expected string, received number; env.A: expected string, received number. Fix these fields to match the exec schema and call exec again.");
    expect(rejection.stack).toBe(rejection.message);
  });
});
