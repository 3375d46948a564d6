// Schema violations reach the model as one clean line: which fields are wrong and how to fix them, with no stack
// trace or file path (an agent's tool node shows `error.stack`). The error stays LangChain's own type (LC-21).
import { ToolInputParsingException } from "@langchain/core/tools";
import type { z } from "zod";
import { quoteInput } from "../engine/messages.js";

export function describeIssues(toolName: string, issues: readonly z.core.$ZodIssue[]): string {
  const fields = issues.map((issue) => {
    // A path segment can be a key the model wrote (an env variable name): quoted like every echoed input.
    const path = issue.path.length > 0 ? issue.path.map((segment) => quoteInput(String(segment))).join(".") : "(arguments)";
    return `${path}: ${issue.message.replace(/^Invalid input: /, "")}`;
  });
  return `Invalid ${toolName} arguments: ${fields.join("; ")}. Fix these fields to match the ${toolName} schema and call ${toolName} again.`;
}

/** Throws LangChain's schema-validation error with a clean message when `args` do not match `schema`. */
export function assertValidInput(toolName: string, schema: z.ZodType, args: unknown): void {
  const parsed = schema.safeParse(args);
  if (parsed.success) return;
  const message = describeIssues(toolName, parsed.error.issues);
  const error = new ToolInputParsingException(message, JSON.stringify(args));
  error.stack = message;
  throw error;
}
