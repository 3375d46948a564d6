// exec-process-mcp: the exec and process tools of langchain-exec-process as an MCP server. The command line is
// the usual entry (`npx exec-process-mcp`); these exports embed the same server in a program of one's own.
export { main } from "./cli.js";
export { serveStdio, STDIO_SCOPE } from "./stdio.js";
export type { StdioServer } from "./stdio.js";
export { serveHttp, MCP_PATH } from "./http.js";
export type { HttpServer } from "./http.js";
export { openScope, EXIT_EVENT_LOGGER } from "./scope.js";
export type { McpScope, ScopeSettings } from "./scope.js";
export { createServerExecutors } from "./executors.js";
export type { ServerExecutors } from "./executors.js";
export {
  parseCommand, DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TIMEOUT_SECONDS, MAX_REQUEST_BYTES, TOKEN_ENV,
} from "./options.js";
export type { Command, HttpOptions, ServerOptions } from "./options.js";
export { DETAILS_OUTPUT_SCHEMA } from "./call-result.js";
