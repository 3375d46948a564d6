// Tool and parameter descriptions the model reads (LC-06 … LC-09, LC-14).

/** LC-06 (exact). */
export const EXEC_DESCRIPTION =
  "Run shell now; background continuation supported. Completed calls return command output directly. Use process only when exec reports running with a sessionId; output text alone is not a process handle. Long run: automatic completion wake when enabled and output/failure occurs; otherwise process confirms completion. TTY CLI/UI/coding agent: pty=true. Quote arguments containing shell metacharacters, including URL query strings with `?` or `&`.";

/** LC-08: synchronous mode, no process tool. */
export const EXEC_SYNC_DESCRIPTION =
  "Run shell now and return the command output when it finishes. TTY CLI/UI/coding agent: pty=true. Quote arguments containing shell metacharacters, including URL query strings with ? or &.";

/** LC-07 (exact). */
export const PROCESS_DESCRIPTION =
  "Control existing exec: list, poll, log, write, send-keys, submit, paste, kill. poll/log: status, output, quiet success, completion without auto-wake, input hints. Others: input/intervention.";

/** LC-14 (exact). */
export const POLL_TIMEOUT_DESCRIPTION =
  "Poll wait in milliseconds (max 30000 ms, higher values are clamped to 30000). Polling is for on-demand status, not for wait loops.";

export const EXEC_PARAMETERS = {
  command: "Shell command to run (required).",
  workdir: "Working directory; defaults to the current directory. Literal path: no ~ or $VAR expansion.",
  env: "Extra environment variables (literal values). PATH, LD_* and DYLD_* cannot be overridden.",
  yieldMs: "Milliseconds to wait before backgrounding (default 10000, 10-120000). Start a long task once and rely on the completion wake.",
  background: "Run in the background immediately and return a sessionId.",
  timeoutSeconds: "Terminate the process after this many seconds (default from config, 1800); 0 disables the timeout.",
  timeout: "Deprecated alias of timeoutSeconds (seconds).",
  pty: "Run in a pseudo-terminal, for TTY CLIs, terminal UIs and coding agents. Needed for later process write/send-keys/submit/paste.",
  elevated: "Run with elevation, only if the application enabled it.",
  host: "Execution target: auto (default), sandbox, gateway or node.",
  node: "Node id or name, used with host=node.",
  title: "Display title; no effect on the command.",
} as const;

export const PROCESS_PARAMETERS = {
  action: "One of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove. Use poll/log for status or completion when no wake is available, log before resuming an interactive CLI; do not use sleep loops or repeated polling for reminders (use a scheduler such as cron).",
  sessionId: "Session id returned by exec (required for every action but list).",
  data: "write: text for stdin (pty sessions only).",
  eof: "write: close stdin after writing.",
  keys: "send-keys: key tokens such as Enter, C-c, Up, M-x (pty sessions only).",
  hex: "send-keys: raw bytes as hex strings, e.g. 1b or 0x0d.",
  literal: "send-keys: literal text sent before hex and keys.",
  text: "paste: text to paste (pty sessions only, like submit).",
  bracketed: "paste: wrap in bracketed-paste markers (default true).",
  offset: "log: first line, 0-based. Omit offset and limit for the last 200 lines.",
  limit: "log: number of lines.",
  timeout: POLL_TIMEOUT_DESCRIPTION,
} as const;

/** The `watch` tool (ours, issue 34): offered only on request (toolkit `watchTool: true`, MCP `--watch-tool`). */
export const WATCH_DESCRIPTION =
  "Wake me when a line of a running exec session's output matches. Give the sessionId that exec returned and a pattern (a literal substring; regex=true for a regular expression). Returns at once; when a line matches, the next turn starts with an `Output matched` event, so do not poll or sleep meanwhile. The watch ends at its first match (once, default true), when the session ends, or after timeoutSeconds.";
export const WATCH_PARAMETERS = {
  sessionId: "Session id returned by exec (a running, backgrounded session).",
  pattern: "Text to look for in each output line (literal substring unless regex=true).",
  regex: "Treat pattern as a regular expression (RE2 syntax, linear time; no backreferences or lookaround).",
  once: "End the watch at its first match (default true). false: keep watching; matches within one second make one event.",
  timeoutSeconds: "End the watch with a `no match` event after this many seconds (default: until the session ends).",
} as const;
