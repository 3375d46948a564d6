// exec's progress updates during its foreground window (EXEC-39, the LangChain tool's `exec_update` events) as MCP
// progress notifications, when the client asked for them with a progressToken.
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** LangChain callbacks that forward each update's text as the message of a notifications/progress. */
export function progressCallbacks(extra: RequestExtra): Array<{ handleCustomEvent(name: string, data: unknown): void }> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return [];
  let progress = 0;
  return [{
    handleCustomEvent(name, data) {
      if (name !== "exec_update") return;
      progress += 1;
      const message = (data as { text?: unknown }).text;
      void extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress, ...(typeof message === "string" ? { message } : {}) },
      }).catch(() => undefined); // the request may have ended meanwhile
    },
  }];
}
