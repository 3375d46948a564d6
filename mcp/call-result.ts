// What a tools/call answers: the LangChain tool's ToolMessage as an MCP CallToolResult (text = content, details =
// structuredContent, status "error" = isError, LC-16, LC-20), and a rejection as a tool error with its own text.
import type { ToolMessage } from "@langchain/core/messages";
import { ToolInputParsingException } from "@langchain/core/tools";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ExecProcessError } from "../src/index.js";

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

/** A ToolMessage of exec or process, returned for a tool call (content is the text the model reads). */
export function fromToolMessage(message: ToolMessage): CallToolResult {
  const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  const details = (message.artifact ?? {}) as Record<string, unknown>;
  return { content: [{ type: "text", text }], structuredContent: details, isError: message.status === "error" };
}

/**
 * A rejected call: the engine's documented text (ExecProcessError) or the clean schema message (LC-21). Anything
 * else is a fault of the server: the model reads a fixed text, and `report` gets the error for the server's log.
 */
export function fromRejection(error: unknown, report: (error: unknown) => void): CallToolResult {
  if (ExecProcessError.is(error) || error instanceof ToolInputParsingException) return toolError(error.message);
  report(error);
  return toolError(new ExecProcessError({ code: "tool-call-failed" }).message);
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
