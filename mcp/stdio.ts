// The stdio transport (the default): one MCP session, one scope. The client closing stdin ends the session and
// every process it started. A line over MAX_REQUEST_BYTES is refused with a JSON-RPC error and the session goes on;
// stdin or stdout failing (the client closed the output: EPIPE) is fatal (issue 32).
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ExecProcessError } from "../src/engine/index.js";
import { TransportFailure } from "./fatal.js";
import { MAX_REQUEST_BYTES } from "./options.js";
import { BoundedLines, type MessageId } from "../src/host/bounded-lines.js";
import { openScope, type ScopeSettings } from "./scope.js";

/** The scope of the one stdio session. */
export const STDIO_SCOPE = "mcp:stdio";

export interface StdioServer {
  /**
   * Resolves once the client has gone (end of input) and the scope's processes have ended; rejects with a
   * TransportFailure when stdin or stdout fails (the session then ends as on an end of input).
   */
  readonly ended: Promise<void>;
  /** Ends the session now, like an end of input. */
  close(): Promise<void>;
}

export async function serveStdio(settings: ScopeSettings, input: Readable = process.stdin, output: Writable = process.stdout): Promise<StdioServer> {
  const scope = openScope(settings, STDIO_SCOPE);
  let closing: Promise<void> | undefined;
  let markEnded: () => void = () => undefined;
  let markFailed: (failure: TransportFailure) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    markEnded = resolve;
    markFailed = reject;
  });
  ended.catch(() => undefined); // a caller that never waits for `ended` must not see an unhandled rejection
  const close = (): Promise<void> => (closing ??= scope.close().finally(markEnded));
  for (const [stream, where] of [[input, "stdin"], [output, "stdout"]] as const) {
    stream.on("error", (error: Error) => {
      markFailed(new TransportFailure(where, error));
      void close();
    });
  }
  const lines = new BoundedLines(MAX_REQUEST_BYTES, (id) => void transport.send(requestTooLarge(id)));
  input.pipe(lines);
  // StdioServerTransport reads data only; the end of input is the client's goodbye (MCP stdio transport: close stdin).
  input.once("end", () => void close());
  input.once("close", () => void close());
  // Every line it gets is whole and within the limit: its buffer never holds more than one line and its newline.
  const transport = new StdioServerTransport(lines, output, { maxBufferSize: MAX_REQUEST_BYTES + 1 });
  await scope.server.connect(transport);
  scope.server.onclose = () => void close();
  return { ended, close };
}

/** JSON-RPC's answer to a request it could not read (-32600); `id` null when the line's start did not hold it. */
function requestTooLarge(id: MessageId | null): JSONRPCMessage {
  const message = new ExecProcessError({ code: "request-too-large", limitBytes: MAX_REQUEST_BYTES }).message;
  return { jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidRequest, message } } as JSONRPCMessage; // the SDK's type has no null id
}
