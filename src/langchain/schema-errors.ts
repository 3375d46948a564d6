// Schema violations reach the model as one clean line: which fields are wrong and how to fix them, with no stack
// trace or file path (an agent's tool node shows `error.stack`). The error stays LangChain's own type (LC-21) and
// carries the engine's error data too: code "invalid-input" and the wrong fields, so `ExecProcessError.is` knows it.
import { ToolInputParsingException } from "@langchain/core/tools";
import type { z } from "zod";
import { describeError, markAsExecProcessError, type ErrorDataOf, type ErrorParam, type InputIssue } from "../engine/errors.js";

/** LangChain's schema-validation error with the code and data of an ExecProcessError of code "invalid-input". */
export class InvalidToolInputError extends ToolInputParsingException {
  readonly code = "invalid-input";
  readonly param: ErrorParam | undefined = undefined;
  readonly data: ErrorDataOf<"invalid-input">;

  constructor(data: ErrorDataOf<"invalid-input">, args: unknown) {
    const message = describeError(data);
    super(message, JSON.stringify(args));
    this.data = data;
    this.stack = message;
  }
}

markAsExecProcessError(InvalidToolInputError.prototype);

/** zod's issues as fields of the arguments: its own wording, without its "Invalid input: " head. */
export function inputIssues(issues: readonly z.core.$ZodIssue[]): InputIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment))),
    message: issue.message.replace(/^Invalid input: /, ""),
  }));
}

/** Throws LangChain's schema-validation error with a clean message when `args` do not match `schema`. */
export function assertValidInput(toolName: string, schema: z.ZodType, args: unknown): void {
  const parsed = schema.safeParse(args);
  if (parsed.success) return;
  throw new InvalidToolInputError({ code: "invalid-input", tool: toolName, issues: inputIssues(parsed.error.issues) }, args);
}
