// The tools every front end offers (src/tool-spec/tool-specs.ts: LC-02, LC-08, LC-15) and their JSON schemas.
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { describe, expect, it } from "vitest";
import { EXEC_DESCRIPTION, EXEC_SYNC_DESCRIPTION, PROCESS_DESCRIPTION } from "../../src/tool-spec/descriptions.js";
import { execSchema, execSyncSchema, processSchema } from "../../src/tool-spec/schemas.js";
import { execToolSpec, PROCESS_TOOL_SPEC, toolJsonSchema, toolSpecs } from "../../src/tool-spec/tool-specs.js";

describe("toolSpecs", () => {
  it("offers exec and process, or exec alone in its synchronous form without the process tool (LC-02, LC-08, LC-15)", () => {
    expect(toolSpecs(true)).toEqual([
      { name: "exec", description: EXEC_DESCRIPTION, schema: execSchema },
      { name: "process", description: PROCESS_DESCRIPTION, schema: processSchema },
    ]);
    expect(toolSpecs(false)).toEqual([{ name: "exec", description: EXEC_SYNC_DESCRIPTION, schema: execSyncSchema }]);
    expect(execToolSpec(false)).toBe(toolSpecs(false)[0]);
    expect(PROCESS_TOOL_SPEC).toBe(toolSpecs(true)[1]);
  });
});

describe("toolJsonSchema", () => {
  it.each([[execToolSpec(true)], [execToolSpec(false)], [PROCESS_TOOL_SPEC]])("is LangChain's toJsonSchema of the %o schema: a strict object", (spec) => {
    expect(toolJsonSchema(spec)).toEqual(toJsonSchema(spec.schema));
    expect(toolJsonSchema(spec)).toMatchObject({ type: "object", additionalProperties: false });
  });

  it("converts each schema once", () => {
    expect(toolJsonSchema(PROCESS_TOOL_SPEC)).toBe(toolJsonSchema(PROCESS_TOOL_SPEC));
  });
});
