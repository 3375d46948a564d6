// What every front end (the LangChain tools, the MCP server) offers of each tool: its name, the description and the
// schema the model reads (LC-02, LC-06 … LC-15), without LangChain, so that the MCP server starts without it.
import { z } from "zod";
import { EXEC_DESCRIPTION, EXEC_SYNC_DESCRIPTION, PROCESS_DESCRIPTION, WATCH_DESCRIPTION } from "./descriptions.js";
import { execSchema, execSyncSchema, processSchema, watchSchema } from "./schemas.js";

export interface ExecToolSpec {
  readonly name: "exec";
  readonly description: string;
  readonly schema: typeof execSchema | typeof execSyncSchema;
}

export interface ProcessToolSpec {
  readonly name: "process";
  readonly description: string;
  readonly schema: typeof processSchema;
}

/** The `watch` tool (issue 34): offered only when asked for, beside the process tool. */
export interface WatchToolSpec {
  readonly name: "watch";
  readonly description: string;
  readonly schema: typeof watchSchema;
}

export type ToolSpec = ExecToolSpec | ProcessToolSpec | WatchToolSpec;

const EXEC_TOOL_SPEC: ExecToolSpec = { name: "exec", description: EXEC_DESCRIPTION, schema: execSchema };
/** LC-08, LC-15: without the process tool exec runs synchronously and advertises no continuation. */
const EXEC_SYNC_TOOL_SPEC: ExecToolSpec = { name: "exec", description: EXEC_SYNC_DESCRIPTION, schema: execSyncSchema };
export const PROCESS_TOOL_SPEC: ProcessToolSpec = { name: "process", description: PROCESS_DESCRIPTION, schema: processSchema };
export const WATCH_TOOL_SPEC: WatchToolSpec = { name: "watch", description: WATCH_DESCRIPTION, schema: watchSchema };

/** exec as offered beside the process tool, or alone (LC-08, LC-15). */
export function execToolSpec(processToolAvailable: boolean): ExecToolSpec {
  return processToolAvailable ? EXEC_TOOL_SPEC : EXEC_SYNC_TOOL_SPEC;
}

/** The tools offered: exec, and process unless it is turned off (LC-02). */
export function toolSpecs(processToolAvailable: boolean): ToolSpec[] {
  return processToolAvailable ? [EXEC_TOOL_SPEC, PROCESS_TOOL_SPEC] : [EXEC_SYNC_TOOL_SPEC];
}

const jsonSchemas = new WeakMap<ToolSpec["schema"], Record<string, unknown>>();

/**
 * The JSON schema a model is handed for a tool, as LangChain's `toJsonSchema` makes it from the zod schema: the
 * object made strict (no additional properties), though unknown keys still pass at run time (PROC-05).
 */
export function toolJsonSchema(spec: ToolSpec): Record<string, unknown> {
  let schema = jsonSchemas.get(spec.schema);
  if (!schema) {
    schema = z.toJSONSchema(z.strictObject(spec.schema.shape)) as Record<string, unknown>;
    jsonSchemas.set(spec.schema, schema);
  }
  return schema;
}
