// A tool call on the engine without LangChain (src/tool-spec/run-tool.ts): the arguments checked first (LC-21).
import { describe, expect, it } from "vitest";
import { ExecProcessError, type CallContext, type ExecParams, type ProcessParams, type LocalSessionEngine, type ToolResult } from "../../src/engine/index.js";
import { checkToolInput, runTool } from "../../src/tool-spec/run-tool.js";
import { processSchema } from "../../src/tool-spec/schemas.js";
import { execToolSpec, PROCESS_TOOL_SPEC } from "../../src/tool-spec/tool-specs.js";

const RESULT: ToolResult = { content: [{ type: "text", text: "done" }], details: { status: "completed" } } as ToolResult;

/** An engine that records the calls it gets and answers each with RESULT. */
function recordingEngine() {
  const calls: Array<{ tool: string; params: ExecParams | ProcessParams; ctx: CallContext }> = [];
  const engine = {
    exec: (params: ExecParams, ctx: CallContext) => (calls.push({ tool: "exec", params, ctx }), Promise.resolve(RESULT)),
    process: (params: ProcessParams, ctx: CallContext) => (calls.push({ tool: "process", params, ctx }), Promise.resolve(RESULT)),
  } as unknown as LocalSessionEngine;
  return { engine, calls };
}

describe("checkToolInput", () => {
  it("passes arguments that match, unknown keys kept (PROC-05)", () => {
    expect(checkToolInput("process", processSchema, { action: "list", extra: 1 })).toEqual({ ok: true, input: { action: "list", extra: 1 } });
  });

  it("names each wrong field in zod's words, without its head", () => {
    expect(checkToolInput("process", processSchema, { action: 3, keys: "Enter" })).toEqual({
      ok: false,
      error: {
        code: "invalid-input", tool: "process",
        issues: [{ path: ["action"], message: "expected string, received number" }, { path: ["keys"], message: "expected array, received string" }],
      },
    });
  });
});

describe("runTool", () => {
  it("hands checked arguments and the call context to the engine's exec or process", async () => {
    const { engine, calls } = recordingEngine();
    const ctx: CallContext = { scopeKey: "s", processToolAvailable: true, allowElevated: false };
    expect(await runTool(execToolSpec(true), engine, { command: "true" }, ctx)).toBe(RESULT);
    expect(await runTool(PROCESS_TOOL_SPEC, engine, { action: "list" }, ctx)).toBe(RESULT);
    expect(calls).toEqual([{ tool: "exec", params: { command: "true" }, ctx }, { tool: "process", params: { action: "list" }, ctx }]);
  });

  it("rejects arguments that do not match with an ExecProcessError of code invalid-input, and calls nothing", async () => {
    const { engine, calls } = recordingEngine();
    const call = runTool(execToolSpec(true), engine, { command: 42 }, { scopeKey: "s" });
    await expect(call).rejects.toSatisfy((error) => ExecProcessError.is(error, "invalid-input"));
    await expect(call).rejects.toThrow(/^Invalid exec arguments: command: expected string, received number\./);
    expect(calls).toEqual([]);
  });
});
