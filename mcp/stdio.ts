// The stdio transport (the default): one MCP session, one scope. The client closing stdin ends the session and
// every process it started.
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { openScope, type ScopeSettings } from "./scope.js";

/** The scope of the one stdio session. */
export const STDIO_SCOPE = "mcp:stdio";

export interface StdioServer {
  /** Resolves once the client has gone (end of input) and the scope's processes have ended. */
  readonly ended: Promise<void>;
  /** Ends the session now, like an end of input. */
  close(): Promise<void>;
}

export async function serveStdio(settings: ScopeSettings, input: Readable = process.stdin, output: Writable = process.stdout): Promise<StdioServer> {
  const scope = openScope(settings, STDIO_SCOPE);
  let closing: Promise<void> | undefined;
  let markEnded: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => void (markEnded = resolve));
  const close = (): Promise<void> => (closing ??= scope.close().finally(markEnded));
  // StdioServerTransport reads data only; the end of input is the client's goodbye (MCP stdio transport: close stdin).
  input.once("end", () => void close());
  input.once("close", () => void close());
  await scope.server.connect(new StdioServerTransport(input, output));
  scope.server.onclose = () => void close();
  return { ended, close };
}
