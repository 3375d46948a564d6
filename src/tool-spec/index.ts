// The tools without LangChain: their specs, JSON schemas and calls, for the MCP server (issue 36).
export { EXEC_DESCRIPTION, EXEC_SYNC_DESCRIPTION, PROCESS_DESCRIPTION, WATCH_DESCRIPTION } from "./descriptions.js";
export { execSchema, execSyncSchema, processSchema, watchSchema } from "./schemas.js";
export type { ExecInput, ProcessInput, WatchInput } from "./schemas.js";
export { execToolSpec, PROCESS_TOOL_SPEC, toolJsonSchema, toolSpecs, WATCH_TOOL_SPEC } from "./tool-specs.js";
export type { ExecToolSpec, ProcessToolSpec, ToolSpec, WatchToolSpec } from "./tool-specs.js";
export { checkToolInput, isErrorResult, runTool, watchOn } from "./run-tool.js";
export type { InputCheck } from "./run-tool.js";
export { systemEventLines } from "../engine/messages.js";
