// exec's progress updates during its foreground window (EXEC-39, the LangChain tool's `exec_update` events) as MCP
// progress notifications, when the client asked for them with a progressToken.
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

/** The `_meta` key of a progress notification that carries the update's details (running status, tail, …). */
export const PROGRESS_DETAILS_META_KEY = "exec-process-mcp/details";

export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** LangChain callbacks that forward each update as a notifications/progress: its text as the message, its details in `_meta`. */
export function progressCallbacks(extra: RequestExtra): Array<{ handleCustomEvent(name: string, data: unknown): void }> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return [];
  let progress = 0;
  return [{
    handleCustomEvent(name, data) {
      if (name !== "exec_update") return;
      progress += 1;
      const { text, details } = data as { text?: unknown; details?: unknown };
      void extra.sendNotification({
        method: "notifications/progress",
        params: {
          progressToken, progress, ...(typeof text === "string" ? { message: text } : {}),
          _meta: { [PROGRESS_DETAILS_META_KEY]: details },
        },
      }).catch(() => undefined); // the request may have ended meanwhile
    },
  }];
}
