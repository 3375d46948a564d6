// What a tools/call answers: the engine's result as the LangChain tool's ToolMessage carries it, as an MCP
// CallToolResult (text = content, details = structuredContent, a failed result = isError, LC-16, LC-20), and a
// rejection as a tool error with its own text.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ExecProcessError, type ToolResult } from "../src/engine/index.js";
import { isErrorResult } from "../src/tool-spec/index.js";

/**
 * The outputSchema of both tools. The details are a union of many kinds (result-details.ts, TypeScript types and
 * no JSON schema), so the schema names the field every kind has and leaves the rest open rather than copy them.
 */
export const DETAILS_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    status: {
      type: "string",
      enum: ["completed", "failed", "running"],
      description: "completed, failed, or running (a background session: pass sessionId to process).",
    },
  },
  required: ["status"],
} as const;

/** A result of exec or process: its text is what the model reads; a failed one is a ToolMessage of status "error" (LC-20). */
export function fromToolResult(result: ToolResult): CallToolResult {
  return { content: [{ type: "text", text: result.content[0].text }], structuredContent: { ...result.details }, isError: isErrorResult(result) };
}

/**
 * A rejected call: the engine's documented text (ExecProcessError), the clean schema message included (LC-21).
 * Anything else is a fault of the server: the model reads a fixed text, and `report` gets the error for the log.
 */
export function fromRejection(error: unknown, report: (error: unknown) => void): CallToolResult {
  if (ExecProcessError.is(error)) return toolError(error.message);
  report(error);
  return toolError(new ExecProcessError({ code: "tool-call-failed" }).message);
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
