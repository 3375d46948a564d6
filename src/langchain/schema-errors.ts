// Schema violations reach the model as one clean line: which fields are wrong and how to fix them, with no stack
// trace or file path (an agent's tool node shows `error.stack`). The error stays LangChain's own type (LC-21) and
// carries the engine's error data too: code "invalid-input" and the wrong fields, so `ExecProcessError.is` knows it.
import { ToolInputParsingException } from "@langchain/core/tools";
import type { z } from "zod";
import { describeError, markAsExecProcessError, type ErrorDataOf, type ErrorParam } from "../engine/errors.js";
import { checkToolInput } from "../tool-spec/run-tool.js";

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

/** Throws LangChain's schema-validation error with a clean message when `args` do not match `schema`. */
export function assertValidInput(toolName: string, schema: z.ZodType, args: unknown): void {
  const checked = checkToolInput(toolName, schema, args);
  if (!checked.ok) throw new InvalidToolInputError(checked.error, args);
}
