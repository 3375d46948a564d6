// Every text that SPEC.md pins lives here, as a constant or a function of its data.
// Other modules import these; no pinned wording is written anywhere else.

// ---- exec validation (EXEC-02, EXEC-07, EXEC-08, EXEC-12, EXEC-17, EXEC-23) ----
export const MISSING_COMMAND = "Provide a command to start.";
export const invalidHost = (value: string): string =>
  `Invalid exec host "${value}". Allowed values: auto, sandbox, gateway, node.`;
export const hostUnavailable = (host: string): string =>
  `exec host "${host}" is not available: no executor is registered for it.`;
export const ELEVATION_UNAVAILABLE =
  "elevated is not available right now (runtime=direct).\n" +
  "Enable it for this toolkit with allowElevated: true (engine: ctx.allowElevated) if the embedding application permits elevated commands.";
export const PATH_FORBIDDEN = "Security Violation: Custom 'PATH' variable is forbidden during host execution.";
export const envKeyForbidden = (key: string): string =>
  `Security Violation: Environment variable '${key}' is forbidden during host execution.`;
export const envViolation = (parts: string[], pathBlocked: boolean): string =>
  pathBlocked
    ? `Security Violation: Custom 'PATH' variable is forbidden during host execution (${parts.join("; ")}).`
    : `Security Violation: ${parts.join("; ")}.`;
export const blockedKeysPart = (keys: string[]): string => `blocked override keys: ${keys.join(", ")}`;
export const invalidKeysPart = (keys: string[]): string => `invalid non-portable override keys: ${keys.join(", ")}`;
/** EXEC-17: one blocked key alone has its own sentence; otherwise the parts, blocked keys first. */
export const envOverridesRejected = (blocked: string[], invalid: string[]): string => {
  const pathBlocked = blocked.includes("PATH");
  if (invalid.length === 0 && blocked.length === 1) return pathBlocked ? PATH_FORBIDDEN : envKeyForbidden(blocked[0] ?? "");
  const parts = [...(blocked.length > 0 ? [blockedKeysPart(blocked)] : []), ...(invalid.length > 0 ? [invalidKeysPart(invalid)] : [])];
  return envViolation(parts, pathBlocked);
};
export const workdirUnavailable = (value: string): string =>
  `workdir "${value}" is unavailable or not a directory: command was not executed. workdir is treated as a literal path; shell expansions such as "~" are not applied. Use an existing directory, omit an explicit workdir to use the default cwd, or update the configured default cwd.`;

// ---- exec results (RES-05 … RES-23, EXEC-40, EXEC-43, PTY-05) ----
export const NO_OUTPUT = "(no output)";
export const commandExitedWithCode = (code: number): string => `(Command exited with code ${code})`;
export const COMMAND_NOT_FOUND = "Command not found";
export const COMMAND_NOT_EXECUTABLE = "Command not executable (permission denied)";
export const commandTimedOut = (seconds: number): string => `Command timed out after ${String(seconds)} seconds.`;
export const NO_OUTPUT_TIMED_OUT = "Command timed out waiting for output.";
export const TIMEOUT_GUIDANCE =
  "The command was terminated, but external side effects may already have completed. Verify the resulting state before retrying. Do not automatically rerun non-idempotent commands. Use a higher timeout only when the command is known to be safe to retry.";
export const BACKGROUND_HINT =
  "If it should keep running, start it with exec background=true or yieldMs so OpenClaw can register a pollable process session. Do not rely on shell backgrounding with a trailing &.";
export const abortedBySignal = (signal: string): string => `Command aborted by signal ${signal}`;
export const ABORTED_BEFORE_EXIT = "Command aborted before exit code was captured";
export const FOLLOW_UP =
  "Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up.";
export const stillRunning = (id: string, pid: number | undefined): string =>
  `Command still running (session ${id}, pid ${pid ?? "n/a"}). ${FOLLOW_UP}`;
export const SYNC_MODE_WARNING = "Warning: continuation options are unavailable; running synchronously.";
export const ptyFallbackWarning = (error: string, command: string): string =>
  `Warning: PTY spawn failed (${error}); retrying without PTY for \`${command}\`.`;
export const ABORTED = "Tool execution was aborted";
/** EXEC-40: a signal already aborted when exec starts (upstream: `signal.throwIfAborted()`, the default reason). */
export const ABORTED_BEFORE_START = "This operation was aborted";
export const ENGINE_DISPOSED = "Session engine has been disposed.";

// ---- output notes (OUT-16, RES-08) ----
export const DISCARDED_NOTE = "[earlier output was discarded at the retention cap and cannot be recovered]";
export const OMITTED_NOTE =
  "[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output]";
export const OMITTED_GONE_NOTE =
  "[earlier output is omitted from this poll; omitted output is no longer available through action=log]";

// ---- process tool (PROC, LIST, POLL, LOG, INPUT, KEYS, KILL) ----
export const INVALID_ACTION =
  "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove";
export const SESSION_ID_REQUIRED = "sessionId is required for this action.";
export const notBackgrounded = (id: string): string => `Session ${id} is not backgrounded.`;
export const noSession = (id: string): string => `No session found for ${id}`;
export const noActiveSession = (id: string): string => `No active session found for ${id}`;
export const noFinishedSession = (id: string): string => `No finished session found for ${id}`;
export const stdinNotWritable = (id: string): string => `Session ${id} stdin is not writable.`;
export const ptyInputQueueFull = (pendingBytes: number): string =>
  `Input not sent: the terminal still holds ${pendingBytes} bytes of earlier input that the program has not read. Wait until it reads its input (poll shows its progress), or kill the session.`;
export const NO_SESSIONS = "No running or recent sessions.";
export const NO_NEW_OUTPUT = "(no new output)";
export const PROCESS_STILL_RUNNING = "Process still running.";
export const processExitedWith = (label: string): string => `Process exited with ${label}.`;
export const processStoppedByRequest = (label: string): string => `Process stopped by request (${label}).`;
export const inputWaitHint = (duration: string): string =>
  `\n\nNo new output for ${duration}; this session may be waiting for input. Use process write, send-keys, submit, or paste to provide input.`;
export const LOG_EMPTY_RUNNING = "(no output yet)";
export const LOG_EMPTY_FINISHED = "(no output recorded)";
export const logPagingHint = (shown: number, total: number): string =>
  `\n\n[showing last ${shown} of ${total} lines; pass offset/limit to page]`;
export const wroteBytes = (bytes: number, id: string, closed: boolean): string =>
  `Wrote ${bytes} bytes to session ${id}${closed ? " (stdin closed)" : ""}.`;
export const submitted = (id: string): string => `Submitted session ${id} (sent CR).`;
export const pasted = (chars: number, id: string): string => `Pasted ${chars} chars to session ${id}.`;
export const NO_PASTE_TEXT = "No paste text provided.";
export const sentBytes = (bytes: number, id: string, warnings: readonly string[]): string =>
  `Sent ${bytes} bytes to session ${id}.` + (warnings.length > 0 ? `\nWarnings:\n- ${warnings.join("\n- ")}` : "");
export const NO_KEY_DATA = "No key data provided.";
export const invalidHexByte = (entry: string): string => `Invalid hex byte: ${entry}`;
export const unknownModifiedKey = (base: string): string => `Unknown key "${base}" for modifiers; sending literal.`;
export const cursorModeUnknown = (id: string): string =>
  `Session ${id} cursor key mode is not known yet. Poll or log until startup output appears, then retry send-keys.`;
export const terminationRequested = (id: string): string => `Termination requested for session ${id}.`;
export const unableToTerminate = (id: string): string =>
  `Unable to terminate session ${id}: no active supervisor cancellation handle. Use process poll to check whether it is already exiting.`;
export const unableToRemove = (id: string): string =>
  `Unable to remove session ${id}: no active supervisor cancellation handle. Use process poll to check whether it is already exiting.`;
export const cleared = (id: string): string => `Cleared session ${id}.`;
export const removedRunning = (id: string): string => `Removed session ${id} (termination requested).`;
export const removedFinished = (id: string): string => `Removed session ${id}.`;

// ---- notifications (NOTIFY-07) ----
export const exitEvent = (status: string, id8: string, label: string, snippet: string, timedOut: boolean): string =>
  `Exec ${status} (${id8}, ${label})` + (snippet ? ` :: ${snippet}` : "") + (timedOut ? `\n\n${TIMEOUT_GUIDANCE}` : "");

// ---- exit labels (RES-25) ----
export const exitLabel = (code: number | null, signal: string | null): string =>
  signal ? `signal ${signal}` : code !== null ? `code ${code}` : "unknown exit code";

// ---- strings no process can be started with (ours; SPEC pins none: EXEC-03, EXEC-28) ----
export const nulByteIn = (parameter: string, index: number): string =>
  `${parameter} contains a NUL byte (\\0) at character ${index}: command was not executed. ` +
  "The operating system cannot pass NUL bytes in commands, paths or environment variables, and the command is never cut short. " +
  "Remove the NUL byte; to produce one, let the command print it (for example printf '\\0').";
export const argumentTooLarge = (what: string, bytes: number, limit: number): string =>
  `${what} is ${bytes} bytes, over the operating system's limit of ${limit} bytes for a single argument or ` +
  "environment entry (MAX_ARG_STRLEN, E2BIG): command was not executed. Write long content to a file and pass its path instead.";
export const argumentsTooLarge = (bytes: number, limit: number): string =>
  `command and environment together are ${bytes} bytes, over the operating system's limit of ${limit} bytes for a new ` +
  "process (ARG_MAX, E2BIG): command was not executed. Shorten the command or the env values, or write long content to a file and pass its path instead.";

// ---- host executors: bubblewrap sandbox and SSH nodes (issue 13) ----
export const sandboxUnavailable = (bwrapPath: string, reason: string): string =>
  `The sandbox cannot start: bubblewrap ("${bwrapPath}") ${reason}. Install it (Debian/Ubuntu: apt-get install bubblewrap) ` +
  "or pass bwrapPath; the kernel or container must allow unprivileged user namespaces " +
  "(sysctl kernel.unprivileged_userns_clone=1; for Docker, a seccomp profile that permits clone with CLONE_NEWUSER). " +
  "The command was not run: the sandbox never falls back to running unsandboxed.";
export const sandboxWorkdirMissing = (cwd: string): string =>
  `sandbox workdir "${cwd}" does not exist or is not a directory: command was not executed.`;
export const SSH_MODULE_MISSING =
  "SSH nodes need the optional package ssh2: install it with `npm i ssh2` next to langchain-exec-process.";
export const unknownNode = (node: string | undefined, known: string[]): string =>
  (node === undefined ? "exec host \"node\" needs the node parameter" : `Unknown node "${node}"`) +
  `: known nodes are ${known.length > 0 ? known.map((name) => `"${name}"`).join(", ") : "(none)"}.`;
export const sshConnectFailed = (node: string, reason: string): string =>
  `Could not connect to node "${node}": ${reason}. Check the node's host, port and credentials.`;
export const sshConnectionLost = (node: string): string =>
  `\n[connection to node "${node}" lost: the remote command's outcome is unknown]\n`;
export const nodeWorkdirMissing = (cwd: string): string => `workdir "${cwd}" does not exist on this node.`;
export const nodeHostKeyRequired = (node: string): string =>
  `SSH node "${node}" needs hostKey (the server's public key, as in known_hosts), a hostVerifier, or acceptAnyHostKey: true.`;
export const nodeAuthRequired = (node: string): string =>
  `SSH node "${node}" needs one of privateKey, password or agent to authenticate.`;

// ---- MCP server, exec-process-mcp (issue 22) ----
export const unknownTool = (tool: string, tools: string[]): string =>
  `Unknown tool "${tool}": this server offers ${tools.join(" and ")}. Call one of them.`;
export const TOOL_CALL_FAILED =
  "The tool call failed inside the exec-process server; the server's log has the details. Try the call again; if it fails the same way, use another command.";
export const invalidServerOption = (option: string, expected: string, value: string): string =>
  `${option} expects ${expected} (got "${value}").`;
/** Why an HTTP request was refused before it reached an MCP session. */
export const httpRequestRefused = (reason: "foreign-origin" | "foreign-host" | "token-required" | "session-unknown" | "session-required"): string => {
  switch (reason) {
    case "foreign-origin":
      return "Forbidden: requests from this Origin are refused (DNS-rebinding protection). Start the server with --allow-origin <origin> to admit a browser client.";
    case "foreign-host":
      return "Forbidden: the Host header names neither this server's address nor localhost (DNS-rebinding protection).";
    case "token-required":
      return "Unauthorized: send the server's token as Authorization: Bearer <token> (--token or EXEC_PROCESS_MCP_TOKEN).";
    case "session-unknown":
      return "Not found: no MCP session has this Mcp-Session-Id (it ended or timed out); send a new initialize request without one.";
    case "session-required":
      return "Bad request: send initialize first, then every request with the Mcp-Session-Id header the server returned.";
  }
};
