// Every text that SPEC.md pins lives here, as a constant or a function of its data.
// Other modules import these; no pinned wording is written anywhere else.
import { QUOTED_INPUT_HEAD_CHARS, QUOTED_INPUT_MAX_CHARS, QUOTED_LIST_MAX_ITEMS } from "./settings.js";

// ---- input echoed in a text (ours, issue 20) ----
/**
 * An input as a text quotes it: whole up to 100 characters (so every pinned text stays byte-identical for normal
 * inputs), else its first 80 characters, `…` and its length, so a 1 MB session id or a 64 KB workdir is not sent
 * back to the model. Every message that echoes a caller's value (ids, paths, keys, tokens, node names) uses it.
 */
export function quoteInput(text: string): string {
  if (text.length <= QUOTED_INPUT_MAX_CHARS) return text;
  const code = text.charCodeAt(QUOTED_INPUT_HEAD_CHARS - 1);
  const head = code >= 0xd800 && code <= 0xdbff ? QUOTED_INPUT_HEAD_CHARS - 1 : QUOTED_INPUT_HEAD_CHARS; // whole pairs
  return `${text.slice(0, head)}… (${text.length} chars)`;
}

/** A list of inputs as a text: each quoted, at most 10, then how many more there are. */
export function quoteInputs(items: readonly string[], separator: string): string {
  const shown = items.slice(0, QUOTED_LIST_MAX_ITEMS).map(quoteInput).join(separator);
  const more = items.length - QUOTED_LIST_MAX_ITEMS;
  return more > 0 ? `${shown}${separator}… (${more} more)` : shown;
}

/** KEYS-04's warning lines: at most 10 (each quotes its input), then how many more there were. */
function listWarnings(warnings: readonly string[]): string {
  const more = warnings.length - QUOTED_LIST_MAX_ITEMS;
  const shown = warnings.slice(0, QUOTED_LIST_MAX_ITEMS);
  return (more > 0 ? [...shown, `… (${more} more warnings)`] : shown).join("\n- ");
}

// ---- exec validation (EXEC-02, EXEC-07, EXEC-08, EXEC-12, EXEC-17, EXEC-23) ----
export const MISSING_COMMAND = "Provide a command to start.";
export const invalidHost = (value: string): string =>
  `Invalid exec host "${quoteInput(value)}". Allowed values: auto, sandbox, gateway, node.`;
export const hostUnavailable = (host: string): string =>
  `exec host "${host}" is not available: no executor is registered for it.`;
export const ELEVATION_UNAVAILABLE =
  "elevated is not available right now (runtime=direct).\n" +
  "Enable it for this toolkit with allowElevated: true (engine: ctx.allowElevated) if the embedding application permits elevated commands.";
export const PATH_FORBIDDEN = "Security Violation: Custom 'PATH' variable is forbidden during host execution.";
export const envKeyForbidden = (key: string): string =>
  `Security Violation: Environment variable '${quoteInput(key)}' is forbidden during host execution.`;
export const envViolation = (parts: string[], pathBlocked: boolean): string =>
  pathBlocked
    ? `Security Violation: Custom 'PATH' variable is forbidden during host execution (${parts.join("; ")}).`
    : `Security Violation: ${parts.join("; ")}.`;
export const blockedKeysPart = (keys: string[]): string => `blocked override keys: ${quoteInputs(keys, ", ")}`;
export const invalidKeysPart = (keys: string[]): string => `invalid non-portable override keys: ${quoteInputs(keys, ", ")}`;
/** EXEC-17: one blocked key alone has its own sentence; otherwise the parts, blocked keys first. */
export const envOverridesRejected = (blocked: string[], invalid: string[]): string => {
  const pathBlocked = blocked.includes("PATH");
  if (invalid.length === 0 && blocked.length === 1) return pathBlocked ? PATH_FORBIDDEN : envKeyForbidden(blocked[0] ?? "");
  const parts = [...(blocked.length > 0 ? [blockedKeysPart(blocked)] : []), ...(invalid.length > 0 ? [invalidKeysPart(invalid)] : [])];
  return envViolation(parts, pathBlocked);
};
export const workdirUnavailable = (value: string): string =>
  `workdir "${quoteInput(value)}" is unavailable or not a directory: command was not executed. workdir is treated as a literal path; shell expansions such as "~" are not applied. Use an existing directory, omit an explicit workdir to use the default cwd, or update the configured default cwd.`;

// ---- exec results (RES-05 … RES-23, EXEC-40, EXEC-43, PTY-05) ----
export const NO_OUTPUT = "(no output)";
export const commandExitedWithCode = (code: number): string => `(Command exited with code ${code})`;
export const COMMAND_NOT_FOUND = "Command not found";
export const COMMAND_NOT_EXECUTABLE = "Command not executable (permission denied)";
export const commandTimedOut = (seconds: number): string => `Command timed out after ${String(seconds)} seconds.`;
export const TIMEOUT_GUIDANCE =
  "The command was terminated, but external side effects may already have completed. Verify the resulting state before retrying. Do not automatically rerun non-idempotent commands. Use a higher timeout only when the command is known to be safe to retry.";
export const BACKGROUND_HINT =
  "If it should keep running, start it with exec background=true or yieldMs so OpenClaw can register a pollable process session. Do not rely on shell backgrounding with a trailing &.";
export const abortedBySignal = (signal: string): string => `Command aborted by signal ${signal}`;
export const ABORTED_BEFORE_EXIT = "Command aborted before exit code was captured";
export const FOLLOW_UP =
  "Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up.";
export const stillRunning = (id: string, pid: number | undefined): string =>
  `Command still running (session ${quoteInput(id)}, pid ${pid ?? "n/a"}). ${FOLLOW_UP}`;
export const SYNC_MODE_WARNING = "Warning: continuation options are unavailable; running synchronously.";
export const ptyFallbackWarning = (error: string, command: string): string =>
  `Warning: PTY spawn failed (${error}); retrying without PTY for \`${quoteInput(command)}\`.`;
export const ABORTED = "Tool execution was aborted";
/** EXEC-40: a signal already aborted when exec starts (upstream: `signal.throwIfAborted()`, the default reason). */
export const ABORTED_BEFORE_START = "This operation was aborted";
export const ENGINE_DISPOSED = "Session engine has been disposed.";
/** wakeOnExit's nextRun() when the loop stops first (ours; the SPEC pins none). */
export const WAKE_STOPPED = "wakeOnExit was stopped (stop() or engine.dispose()) before a wake run ended: no wake run follows.";

// ---- output notes (OUT-16, RES-08) ----
export const DISCARDED_NOTE = "[earlier output was discarded at the retention cap and cannot be recovered]";
export const OMITTED_NOTE =
  "[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output]";
export const OMITTED_GONE_NOTE =
  "[earlier output is omitted from this poll; omitted output is no longer available through action=log]";

// ---- tool arguments against the schema (LC-13, LC-21: one clean line, no stack or path) ----
export const invalidToolArguments = (tool: string, issues: ReadonlyArray<{ path: ReadonlyArray<string | number>; message: string }>): string => {
  const fields = issues.map((issue) => {
    // A path segment can be a key the model wrote (an env variable name): quoted like every echoed input.
    const path = issue.path.length > 0 ? issue.path.map((segment) => quoteInput(String(segment))).join(".") : "(arguments)";
    return `${path}: ${issue.message}`;
  });
  return `Invalid ${tool} arguments: ${fields.join("; ")}. Fix these fields to match the ${tool} schema and call ${tool} again.`;
};

// ---- process tool (PROC, LIST, POLL, LOG, INPUT, KEYS, KILL) ----
export const INVALID_ACTION =
  "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove";
export const SESSION_ID_REQUIRED = "sessionId is required for this action.";
export const notBackgrounded = (id: string): string => `Session ${quoteInput(id)} is not backgrounded.`;
export const noSession = (id: string): string => `No session found for ${quoteInput(id)}`;
export const noActiveSession = (id: string): string => `No active session found for ${quoteInput(id)}`;
export const noFinishedSession = (id: string): string => `No finished session found for ${quoteInput(id)}`;
export const stdinNotWritable = (id: string): string => `Session ${quoteInput(id)} stdin is not writable.`;
/** INPUT-03 pins the failure text exactly, so the way out goes beside it, in `details.hint` (issue 25). */
export const STDIN_NOT_WRITABLE_HINT =
  "Only a session started with pty: true takes input (write, send-keys, submit, paste): run the command again with exec pty: true.";
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
  `Wrote ${bytes} bytes to session ${quoteInput(id)}${closed ? " (stdin closed)" : ""}.`;
export const submitted = (id: string): string => `Submitted session ${quoteInput(id)} (sent CR).`;
export const pasted = (chars: number, id: string): string => `Pasted ${chars} chars to session ${quoteInput(id)}.`;
export const NO_PASTE_TEXT = "No paste text provided.";
export const sentBytes = (bytes: number, id: string, warnings: readonly string[]): string =>
  `Sent ${bytes} bytes to session ${quoteInput(id)}.` + (warnings.length > 0 ? `\nWarnings:\n- ${listWarnings(warnings)}` : "");
export const NO_KEY_DATA = "No key data provided.";
export const invalidHexByte = (entry: string): string => `Invalid hex byte: ${quoteInput(entry)}`;
export const unknownModifiedKey = (base: string): string => `Unknown key "${quoteInput(base)}" for modifiers; sending literal.`;
export const cursorModeUnknown = (id: string): string =>
  `Session ${quoteInput(id)} cursor key mode is not known yet. Poll or log until startup output appears, then retry send-keys.`;
export const terminationRequested = (id: string): string => `Termination requested for session ${quoteInput(id)}.`;
export const unableToTerminate = (id: string): string =>
  `Unable to terminate session ${quoteInput(id)}: no active supervisor cancellation handle. Use process poll to check whether it is already exiting.`;
export const unableToRemove = (id: string): string =>
  `Unable to remove session ${quoteInput(id)}: no active supervisor cancellation handle. Use process poll to check whether it is already exiting.`;
export const cleared = (id: string): string => `Cleared session ${quoteInput(id)}.`;
export const removedRunning = (id: string): string => `Removed session ${quoteInput(id)} (termination requested).`;
export const removedFinished = (id: string): string => `Removed session ${quoteInput(id)}.`;

// ---- notifications (NOTIFY-07) ----
export const exitEvent = (status: string, id8: string, label: string, snippet: string, timedOut: boolean): string =>
  `Exec ${status} (${id8}, ${label})` + (snippet ? ` :: ${snippet}` : "") + (timedOut ? `\n\n${TIMEOUT_GUIDANCE}` : "");
/** LC-18: queued exit events as the lines the model reads before its next call. */
export const systemEventLines = (texts: readonly string[]): string => texts.map((text) => `System: ${text}`).join("\n");

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
const quoted = (value: string): string => `"${quoteInput(value)}"`;
export const sandboxUnavailable = (bwrapPath: string, reason: string): string =>
  `The sandbox cannot start: bubblewrap ("${quoteInput(bwrapPath)}") ${reason}. Install it (Debian/Ubuntu: apt-get install bubblewrap) ` +
  "or pass bwrapPath; the kernel or container must allow unprivileged user namespaces " +
  "(sysctl kernel.unprivileged_userns_clone=1; for Docker, a seccomp profile that permits clone with CLONE_NEWUSER). " +
  "The command was not run: the sandbox never falls back to running unsandboxed.";
export const sandboxWorkdirMissing = (cwd: string): string =>
  `sandbox workdir ${quoted(cwd)} does not exist or is not a directory: command was not executed.`;
export const sandboxWorkdirOutside = (cwd: string, roots: readonly string[]): string =>
  `sandbox workdir ${quoted(cwd)} is outside the sandbox's allowed roots (${roots.length > 0 ? roots.map(quoted).join(", ") : "none"}): ` +
  "command was not executed. Use a workdir inside one of them, or omit workdir to use the default cwd; " +
  "to allow another directory, add it to the sandbox executor's allowedRoots.";
/** Why a sandbox mount was refused (sandboxMountRefused; the error data of sandbox-mount-refused). */
export type SandboxMountProblem =
  | "missing" | "symlink" | "relative-target" | "target-unavailable" | "covers-control-dir" | "changed";
const MOUNT_PROBLEMS: Record<SandboxMountProblem, string> = {
  "missing": "does not exist on the host: command was not executed. Create it, or correct or remove it in the sandbox executor's options.",
  "symlink":
    "goes through a symbolic link: command was not executed. Sandbox mounts are resolved at every command and must be " +
    "real paths, so that no command can redirect one by replacing it with a link; give the real path. If you did not " +
    "create the link, a command replaced the directory: check it before mounting it again.",
  "relative-target": "is not an absolute path: command was not executed. Give the path inside the sandbox as an absolute path.",
  "target-unavailable":
    "cannot be a mount point: it does not exist in the sandbox's read-only view of the host, or is not of the same kind " +
    "(directory or file) as its source, and it cannot be created there: command was not executed. Use an existing path " +
    "of the same kind, or one under /tmp.",
  "covers-control-dir":
    "contains the host's temporary directory, where the sandbox keeps its private control files, so it cannot be " +
    "writable inside: command was not executed. Use a narrower directory, or set TMPDIR of the engine's process to a " +
    "directory outside it.",
  "changed":
    "changed while the sandbox was starting (it was replaced, for example by a symbolic link): command was not " +
    "executed. Run it again; if this repeats, a process is swapping that path.",
};
/** `option` is `workdir` or a path into the executor's options such as `binds[0].source`. */
export const sandboxMountRefused = (option: string, path: string, problem: SandboxMountProblem): string =>
  `sandbox ${option === "workdir" ? "workdir" : `option ${option}`} ${quoted(path)} ${MOUNT_PROBLEMS[problem]}`;
/** `reason`: bubblewrap's own one-line account, or how it ended. */
export const sandboxSetupFailed = (reason: string): string =>
  `The sandbox could not be set up: ${reason}. The command was not executed. ` +
  "Check the sandbox executor's binds and writable options.";
export const SSH_MODULE_MISSING =
  "SSH nodes need the optional package ssh2: install it with `npm i ssh2` next to langchain-exec-process.";
export const unknownNode = (node: string | undefined, known: string[]): string =>
  (node === undefined ? "exec host \"node\" needs the node parameter" : `Unknown node "${quoteInput(node)}"`) +
  `: known nodes are ${known.length > 0 ? known.map((name) => `"${quoteInput(name)}"`).join(", ") : "(none)"}.`;
export const sshConnectFailed = (node: string, reason: string): string =>
  `Could not connect to node "${quoteInput(node)}": ${reason}. Check the node's host, port and credentials.`;
/** Issue 20: a dropped connection leaves the remote command running until the executor reaches the node again. */
export const sshConnectionLost = (node: string, killable = true): string =>
  `\n[connection to node "${quoteInput(node)}" lost: the remote command's outcome is unknown and it may still be running on the node` +
  (killable
    ? `; it is killed as soon as the executor is connected to "${quoteInput(node)}" again (any command there reconnects).`
    : ": its process id was never reported, so it cannot be killed from here.") +
  " Check its effects before running it again.]\n";
export const sshChannelRefused = (node: string, reason: string): string =>
  `Node "${quoteInput(node)}" refused a new SSH channel (${oneLine(reason)}): the server limits the sessions of a connection ` +
  "(sshd MaxSessions, default 10). Set the executor's maxSessionsPerConnection at or below that limit, or raise MaxSessions on the node.";
export const sshPidUnknown = (node: string, limitBytes: number): string =>
  `\n[node "${quoteInput(node)}": the remote login shell printed more than ${limitBytes} bytes before the command started, so the ` +
  "command's process id is unknown: kill and timeouts can only close its channel, which may leave it running]\n";
export const nodeEnvNotDelivered = (node: string): string =>
  `Could not store the command's environment on node "${quoteInput(node)}" (a private file in $TMPDIR or /tmp): command was not ` +
  "executed. Check that the node's temporary directory is writable.";
export const NODE_ENV_FILE_MISSING =
  "the environment prepared for this command is missing on this node ($TMPDIR differs between sessions?): command was not executed.";
export const nodeWorkdirMissing = (cwd: string): string => `workdir "${quoteInput(cwd)}" does not exist on this node.`;
export const nodeHostKeyRequired = (node: string): string =>
  `SSH node "${quoteInput(node)}" needs hostKey (the server's public key, as in known_hosts), a hostVerifier, or acceptAnyHostKey: true.`;
export const nodeAuthRequired = (node: string): string =>
  `SSH node "${quoteInput(node)}" needs one of privateKey, password or agent to authenticate.`;
export const nodeHostKeyInvalid = (node: string, value: string): string =>
  `SSH node "${quoteInput(node)}": hostKey "${oneLine(value)}" holds no public key. Give the server's key as a known_hosts line ` +
  '("[host]:port ssh-ed25519 AAAA…") or as in a .pub file ("ssh-ed25519 AAAA…"), e.g. from ssh-keyscan.';

// ---- container executor (issue 21) ----
export const CONTAINER_MODULE_MISSING =
  "Containers need the optional package dockerode: install it with `npm i dockerode` next to langchain-exec-process.";
export const containerEngineUnavailable = (endpoint: string, reason: string): string =>
  `The container engine at ${endpoint} cannot be reached (${oneLine(reason)}): command was not executed. ` +
  "Start the Docker daemon (or Podman's Docker-compatible service: podman system service) or correct the executor's docker option. " +
  "Commands never fall back to running outside a container.";
export const containerImageMissing = (image: string): string =>
  `The container image "${quoteInput(image)}" is not on the container engine: command was not executed. ` +
  `Pull or build it there first (docker pull ${quoteInput(image)}), or correct the executor's image option.`;
export const containerWorkdirOutside = (cwd: string, root: string | undefined): string =>
  `container workdir ${quoted(cwd)} ` +
  (root === undefined
    ? "cannot be used: the container has no workspace (workspaceAccess \"none\"), so commands run in its /tmp. Leave workdir unset."
    : `is outside the workspace mounted in the container (${quoted(root)}): command was not executed. Use a directory inside it.`);
export const containerSetupFailed = (reason: string): string =>
  `The container could not be started: ${oneLine(reason)}. The command was not executed. Check the container executor's options.`;
export const containerRootRefused = (user: string): string =>
  `The container user "${quoteInput(user)}" is root (uid 0): commands were not run. Root in a container owns every ` +
  "root-owned file of its writable mounts and workspace; set user to an unprivileged uid:gid, or allowRoot: true to accept the risk.";
export const containerWorkspaceRefused = (path: string, reason: string): string =>
  `The container workspace ${quoted(path)} is refused: ${reason}. Mounting it would hand commands the host; ` +
  "name a project folder as workspace, or leave workspace unset for a private workspace per container.";
export const containerWorkspaceUnreachable = (path: string, owner: string, mode: string, user: string): string =>
  `The container user "${quoteInput(user)}" cannot enter the workspace ${quoted(path)} (owner ${owner}, mode ${mode}): ` +
  "command was not executed. Set the executor's user option to the folder's owner, or give that user access to it.";
export const containerLimit = (maxContainers: number): string =>
  `The container executor already holds its maximum of ${maxContainers} containers (maxContainers): command was not executed. ` +
  "Wait for an idle container to go, end sessions of other scopes, or raise maxContainers.";
export const containerEngineUnresponsive = (endpoint: string, waitedMs: number): string =>
  `The container engine at ${endpoint} stopped answering (no reply within ${waitedMs / 1000} s): what it was asked may or may not ` +
  "have happened, and a command's processes may still run in its container. Check the engine (Docker or Podman) and its socket.";
/** The note after the output of a command whose container engine went away while it ran. */
export const containerEngineLost = (endpoint: string): string =>
  `\nThe container engine at ${endpoint} went away while the command ran, so its outcome is unknown. ` +
  "Its processes end with its container once the engine is back.\n";
/** The note after the output of a command the container's memory limit killed. */
export const containerOutOfMemory = (limit: string): string => `\nKilled: out of memory (limit ${limit})\n`;

// ---- embedder options (ours, issue 20) ----
/**
 * An option the embedder (or a flag the MCP server's user) gave that cannot be used: what it takes, and what it got.
 * The MCP server's flags are named as on its command line, without the program's name.
 */
export const invalidOption = (owner: string, option: string, value: string, expected: string): string =>
  owner === "exec-process-mcp"
    ? `${option} expects ${expected} (got "${oneLine(value)}").`
    : `${owner}: ${option} must be ${expected} (got "${oneLine(value)}").`;
/** What a delay that reaches a Node.js timer takes: longer ones fire after 1 ms (issue 20). */
export const timerDelayExpected = (maxMs: number): string =>
  `a number of milliseconds from 0 to ${maxMs} (about 24.8 days, the longest delay a Node.js timer can wait)`;

/** An input quoted on one line: runs of whitespace as one space, then at most about 100 characters (quoteInput). */
function oneLine(text: string): string {
  return quoteInput(text.replace(/\s+/g, " ").trim());
}

// ---- MCP server, exec-process-mcp (issue 22) ----
export const unknownTool = (tool: string, tools: string[]): string =>
  `Unknown tool "${oneLine(tool)}": this server offers ${tools.join(" and ")}. Call one of them.`;
export const TOOL_CALL_FAILED =
  "The tool call failed inside the exec-process server; the server's log has the details. Try the call again; if it fails the same way, use another command.";
/** Why the MCP server's HTTP transport answered a request itself, before any MCP session. */
export type HttpRefusalReason =
  "foreign-origin" | "foreign-host" | "token-required" | "session-unknown" | "session-required" | "unknown-path" | "server-fault";
export const httpRequestRefused = (reason: HttpRefusalReason): string => {
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
    case "unknown-path":
      return "Not found: the MCP endpoint is /mcp.";
    case "server-fault":
      return "Internal error: the request failed inside the exec-process server; its log has the details.";
  }
};
/** The HTTP refusal (503) of an initialize while --max-sessions sessions are open (issue 32, attack 7). */
export const httpSessionLimit = (maxSessions: number): string =>
  `Service unavailable: this server already has ${maxSessions} open MCP sessions, its limit (--max-sessions ${maxSessions}). ` +
  "End a session you no longer use (DELETE /mcp with its Mcp-Session-Id) or wait until an idle one times out, then initialize again.";
/** A JSON-RPC message over the server's limit: error -32600 on stdio, 413 over HTTP (issue 32, attack 9). */
export const requestTooLarge = (limitBytes: number): string =>
  `Request too large: this JSON-RPC message is over the server's limit of ${limitBytes} bytes, so it was not read. ` +
  "Send less in one call: write long content to a file and pass its path instead.";
/** The MCP server's last line on stderr after a fatal error: what failed, in one line (issue 32). */
export const serverFatal = (reason: string): string =>
  `fatal error: ${reason}. Every MCP session ends with its processes; the server exits with code 1.`;

// ---- session host (issue 33): what a worker's call says when the host it shares cannot serve it ----
/** Why a session host cannot be reached, in words (never a path or an errno). */
export type HostUnreachableReason = "not-listening" | "no-socket" | "access-denied" | "timed-out" | "closed";
const HOST_UNREACHABLE_REASONS: Record<HostUnreachableReason, string> = {
  "not-listening": "nothing is listening at its address",
  "no-socket": "its socket does not exist",
  "access-denied": "this process may not open its socket",
  "timed-out": "it did not answer in time",
  "closed": "it closed the connection",
};
export const sessionHostUnreachable = (host: string, reason: HostUnreachableReason): string =>
  `Session host "${host}" cannot be reached: ${HOST_UNREACHABLE_REASONS[reason]}. ` +
  "Start it again (exec-process-host) and retry; the sessions of a host that stopped are gone.";
export const sessionHostLost = (host: string): string =>
  `The connection to session host "${host}" was lost during this call. ` +
  "The command may still be running there: list or poll the session once the host answers again.";
export const sessionHostRestarted = (host: string, scopeKey: string): string =>
  `Session host "${host}" restarted: the sessions of scope "${scopeKey}" are gone, with their output and exit notices ` +
  "(sessions live in the host's memory). Start again what is still needed.";
/** Why a session host refused a client. */
export type HostRefusalReason = "bad-token" | "not-authenticated" | "protocol-version";
const HOST_REFUSALS: Record<HostRefusalReason, string> = {
  "bad-token": "the token does not match the host's (EXEC_PROCESS_HOST_TOKEN or the host's token file)",
  "not-authenticated": "the client called before it authenticated",
  "protocol-version": "the client speaks another version of the host protocol; use the same version of langchain-exec-process",
};
export const sessionHostRefused = (host: string, reason: HostRefusalReason): string =>
  `Session host "${host}" refused the connection: ${HOST_REFUSALS[reason]}.`;
export const sessionHostClientLimit = (host: string, maxClients: number): string =>
  `Session host "${host}" already serves ${maxClients} clients, its limit (--max-clients ${maxClients}). ` +
  "Retry once a worker has disconnected, or raise the limit.";
export const sessionHostScopeLimit = (host: string, maxScopes: number): string =>
  `Session host "${host}" allows one client at most ${maxScopes} scopes (--max-scopes-per-client ${maxScopes}), ` +
  "and this client has used them all. Reuse a scope (agent name or thread), or raise the limit.";

// ---- watches and retry dedupe (ours, issue 34) ----
/** A watch's pattern as the texts quote it: a JSON string, cut like any echoed input. */
export const quotePattern = (pattern: string): string => JSON.stringify(quoteInput(pattern));
/** The event of a match: `line` is sanitized, whitespace folded and cut; `count` > 1 for folded matches. */
export const outputMatchedEvent = (id: string, line: string, count = 1): string =>
  count > 1 ? `Output matched (${quoteInput(id)}, ${count} lines): ${line}` : `Output matched (${quoteInput(id)}): ${line}`;
/** The event of a watch whose session ended before any line matched. */
export const watchSessionEndedEvent = (id: string, pattern: string): string =>
  `Watch ended (${quoteInput(id)}): the session ended and no output line matched ${quotePattern(pattern)}.`;
/** The event of a watch whose timeoutSeconds passed before any line matched. */
export const watchTimedOutEvent = (id: string, pattern: string, seconds: number): string =>
  `Watch ended (${quoteInput(id)}): no match within ${seconds} s for ${quotePattern(pattern)}. The session is still running.`;
/** The result of a watch call that is now waiting. */
export const watchStarted = (id: string, pattern: string, regex: boolean, timeoutSeconds: number | undefined): string =>
  `Watching session ${quoteInput(id)} for ${regex ? "the regular expression" : "the text"} ${quotePattern(pattern)}` +
  (timeoutSeconds === undefined ? " until it ends" : ` for up to ${timeoutSeconds} s`) +
  ". An `Output matched` event wakes you when a line matches; do not poll or sleep meanwhile.";
/** The result of a watch call whose session has already ended (its retained output was searched). */
export const watchOnEndedSession = (id: string, pattern: string): string =>
  `Session ${quoteInput(id)} has already ended and no output line matched ${quotePattern(pattern)}. Use process log to read its output.`;
/** An invalid watch argument: which, what it got, what it takes. */
export const invalidWatchArgument = (param: string, value: string, expected: string): string =>
  `Invalid watch ${param}: got ${value}; expected ${expected}.`;
/** A regex pattern that does not compile. */
export const invalidWatchPattern = (pattern: string, reason: string): string =>
  `Invalid watch pattern ${quotePattern(pattern)}: ${reason}. Fix the regular expression (RE2 syntax: no backreferences or lookaround), or omit regex to match the text literally.`;
/** A watch over the per-session or per-scope limit. */
export const watchLimitReached = (per: "session" | "scope", limit: number, setting: string, id: string): string =>
  `Too many watches: ${per === "session" ? `session ${quoteInput(id)}` : "this scope"} already has ${limit} active watches, the limit (${setting}). ` +
  "Wait for one to match, end or time out, or combine patterns into one regular expression (regex=true, a|b).";
/** An engine without `watch` asked to watch (a front end offering the tool over another engine). */
export const WATCH_UNSUPPORTED = "This engine cannot watch output: the watch tool is unavailable here. Use process poll instead.";
/** The head of an exec result that joined an identical job started earlier (dedupe). */
export const sameJobNote = (id: string, agoSeconds: number): string =>
  `Same job already started ${agoSeconds} s ago (session ${quoteInput(id)}): no second process was started.`;
