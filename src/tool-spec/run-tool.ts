// A tool call on the engine as every front end makes it: the arguments checked against the tool's schema first (a
// clean invalid-input error, LC-21), then handed to the engine.
import type { z } from "zod";
import {
  ExecProcessError, type CallContext, type ErrorDataOf, type InputIssue, type SessionEngine, type ToolResult, type WatchParams,
} from "../engine/index.js";
import type { ToolSpec } from "./tool-specs.js";

export type InputCheck<Input> = { ok: true; input: Input } | { ok: false; error: ErrorDataOf<"invalid-input"> };

/** zod's issues as fields of the arguments: its own wording, without its "Invalid input: " head. */
function inputIssues(issues: readonly z.core.$ZodIssue[]): InputIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment))),
    message: issue.message.replace(/^Invalid input: /, ""),
  }));
}

/** `args` parsed by `schema` (unknown keys kept), or the invalid-input error data naming the wrong fields. */
export function checkToolInput<Schema extends z.ZodType>(toolName: string, schema: Schema, args: unknown): InputCheck<z.output<Schema>> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, error: { code: "invalid-input", tool: toolName, issues: inputIssues(parsed.error.issues) } };
}

/** LC-20: a result the model is told is an error (a ToolMessage of status "error", an MCP result with isError). */
export function isErrorResult(result: ToolResult): boolean {
  return result.details.status === "failed";
}

/** Runs one call of the tool; arguments that do not match its schema reject with an ExecProcessError "invalid-input". */
export async function runTool(spec: ToolSpec, engine: SessionEngine, args: unknown, ctx: CallContext): Promise<ToolResult> {
  if (spec.name === "exec") return engine.exec(checkedInput(spec.name, spec.schema, args), ctx);
  if (spec.name === "watch") return watchOn(engine, checkedInput(spec.name, spec.schema, args), ctx);
  return engine.process(checkedInput(spec.name, spec.schema, args), ctx);
}

/** A watch call (issue 34); an engine without `watch` rejects it with watch-unsupported. */
export async function watchOn(engine: SessionEngine, args: WatchParams, ctx: CallContext): Promise<ToolResult> {
  if (!engine.watch) throw new ExecProcessError({ code: "watch-unsupported" });
  return engine.watch(args, ctx);
}

function checkedInput<Schema extends z.ZodType>(toolName: string, schema: Schema, args: unknown): z.output<Schema> {
  const checked = checkToolInput(toolName, schema, args);
  if (!checked.ok) throw new ExecProcessError(checked.error);
  return checked.input;
}
