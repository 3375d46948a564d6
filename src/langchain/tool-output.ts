// Turns engine results into LangChain tool output (LC-16, LC-20) and reads the call context from a run config.
import { ToolMessage } from "@langchain/core/messages";
import type { ToolRunnableConfig } from "@langchain/core/tools";
import type { ToolDetails, ToolResult } from "../engine/index.js";
import { isErrorResult } from "../tool-spec/run-tool.js";

/**
 * `content_and_artifact` output. A failed result becomes a ToolMessage with status "error" (LC-20), which LangChain
 * passes through unchanged when the tool was invoked with a tool call.
 */
export function toToolOutput(
  result: ToolResult, toolName: string, config: ToolRunnableConfig | undefined,
): [string | ToolMessage, ToolDetails] {
  const text = result.content[0].text;
  const toolCallId = config?.toolCall?.id;
  if (isErrorResult(result) && toolCallId) {
    const message = new ToolMessage({
      status: "error", content: text, artifact: result.details, tool_call_id: toolCallId, name: toolName,
    });
    return [message, result.details];
  }
  return [text, result.details];
}

/** `configurable.thread_id` of the run, if any (LC-04). */
export function threadIdOf(config: ToolRunnableConfig | undefined): string | undefined {
  const threadId: unknown = config?.configurable?.["thread_id"];
  return typeof threadId === "string" || typeof threadId === "number" ? String(threadId) : undefined;
}
