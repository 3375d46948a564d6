// Arguments that do not match a tool's schema are refused with LangChain's ToolInputParsingException before anything
// runs (src/langchain/schema-errors.ts: LC-13).
import { ToolInputParsingException } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
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
    const tool = name === "exec" ? toolkit.exec : toolkit.process!;
    await expect(tool.invoke({ type: "tool_call", id: "bad", name, args })).rejects.toBeInstanceOf(ToolInputParsingException);
    await expect(tool.invoke(args as never)).rejects.toBeInstanceOf(ToolInputParsingException);
    expect(toolkit.engine.liveSessionIds()).toEqual([]);
  });
});
