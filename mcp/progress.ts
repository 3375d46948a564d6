// exec's progress updates during its foreground window (EXEC-39, the LangChain tool's `exec_update` events) as MCP
// progress notifications, when the client asked for them with a progressToken.
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ExecProgressDetails, ToolResult } from "../src/engine/index.js";

/** The `_meta` key of a progress notification that carries the update's details (running status, tail, …). */
export const PROGRESS_DETAILS_META_KEY = "exec-process-mcp/details";

export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A listener for exec's updates that sends each as a notifications/progress: its text as the message, its details in `_meta`. */
export function progressListener(extra: RequestExtra): ((update: ToolResult<ExecProgressDetails>) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  return (update) => {
    progress += 1;
    void extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken, progress, message: update.content[0].text, _meta: { [PROGRESS_DETAILS_META_KEY]: update.details } },
    }).catch(() => undefined); // the request may have ended meanwhile
  };
}
