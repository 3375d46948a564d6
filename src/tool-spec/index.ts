// The tools without LangChain: their specs, JSON schemas and calls, for the MCP server (issue 36).
export { EXEC_DESCRIPTION, EXEC_SYNC_DESCRIPTION, PROCESS_DESCRIPTION } from "./descriptions.js";
export { execSchema, execSyncSchema, processSchema } from "./schemas.js";
export type { ExecInput, ProcessInput } from "./schemas.js";
export { execToolSpec, PROCESS_TOOL_SPEC, toolJsonSchema, toolSpecs } from "./tool-specs.js";
export type { ExecToolSpec, ProcessToolSpec, ToolSpec } from "./tool-specs.js";
export { checkToolInput, isErrorResult, runTool } from "./run-tool.js";
export type { InputCheck } from "./run-tool.js";
export { systemEventLines } from "../engine/messages.js";
