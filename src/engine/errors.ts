// Errors as data: every rejection of an exec or process call is an ExecProcessError whose `code` says what went
// wrong, whose `param` names the offending tool parameter, and whose `data` carries the values the text is built
// from. The text itself comes from messages.ts, so it stays the pinned one.
import * as messages from "./messages.js";
import type { HostRefusalReason, HostUnreachableReason, HttpRefusalReason, SandboxMountProblem } from "./messages.js";

/** The tool parameter an error is about. */
export type ErrorParam = "command" | "host" | "elevated" | "env" | "workdir" | "node" | WatchParam;

/** The parameters of the `watch` tool (issue 34). */
export type WatchParam = "sessionId" | "pattern" | "regex" | "once" | "timeoutSeconds";

/** The function (or, for the MCP server, the program) whose option an invalid-option error is about. */
export type OptionOwner =
  | "wakeOnExit" | "createSshExecutor" | "createSandboxExecutor" | "createContainerExecutor" | "exec-process-mcp"
  | "createSessionHost" | "connectSessionHost" | "exec-process-host";

/** What an error is about, with the values its text names (a discriminated union on `code`). */
export type ErrorData =
  /** EXEC-02: `command` is missing or empty. */
  | { code: "missing-command"; param: "command" }
  /** EXEC-28: a string holds a NUL byte at character `index`; `key` is the env variable when `param` is env. */
  | { code: "unsafe-string"; param: "command" | "env"; index: number; key?: string }
  /** EXEC-07: `host` is none of auto, sandbox, gateway, node. */
  | { code: "invalid-host"; param: "host"; value: string }
  /** EXEC-08: no executor is registered for the host. */
  | { code: "host-unavailable"; param: "host"; host: "sandbox" | "node" }
  /** EXEC-11: elevation was asked for but is not allowed. */
  | { code: "elevation-unavailable"; param: "elevated" }
  /** EXEC-16, EXEC-17: overrides of blocked keys (upper-cased) or of non-portable names, each sorted. */
  | { code: "env-blocked"; param: "env"; blockedKeys: string[]; invalidKeys: string[] }
  /** E2BIG: one argument or env entry (`key` set for env) over MAX_ARG_STRLEN. */
  | { code: "argument-too-large"; param: "command" | "env"; bytes: number; limitBytes: number; key?: string }
  /** E2BIG: the command and environment together over ARG_MAX. */
  | { code: "arguments-too-large"; param: "command"; bytes: number; limitBytes: number }
  /** EXEC-40, POLL-11: the call's abort signal fired; `beforeStart`: it had fired before exec started (as upstream). */
  | { code: "aborted"; beforeStart?: true }
  /** KILL-15: the engine was disposed. */
  | { code: "engine-disposed" }
  /** PTY-05: no terminal could be started; `reason` is one clean line. */
  | { code: "pty-unavailable"; reason: string }
  /** PTY-06, RES-24: no process could be started; `reason` is the spawn error's message. */
  | { code: "spawn-failed"; reason: string }
  /** The terminal still holds more unread input than the engine queues. */
  | { code: "input-queue-full"; pendingBytes: number }
  /** INPUT-07: a write to the session's input failed; `reason` is the stream error's message. */
  | { code: "stdin-write-failed"; reason: string }
  /** host "sandbox": bubblewrap cannot start a sandbox here. */
  | { code: "sandbox-unavailable"; bwrapPath: string; reason: string }
  /** host "sandbox": the working directory does not exist. */
  | { code: "sandbox-workdir-missing"; param: "workdir"; cwd: string }
  /** host "sandbox": the working directory's real path lies outside every allowed root (as configured). */
  | { code: "sandbox-workdir-outside"; param: "workdir"; cwd: string; roots: string[] }
  /** host "sandbox": a mount cannot be made safely; `option` names it (`binds[0].source`, `writable[1]`, `workdir`). */
  | { code: "sandbox-mount-refused"; param?: "workdir"; option: string; path: string; problem: SandboxMountProblem }
  /** createSandboxExecutor: an option has a value it cannot use. */
  /** host "sandbox": bubblewrap stopped before the command started; `reason` is its own account, one line. */
  | { code: "sandbox-setup-failed"; reason: string }
  /** host "node": the optional package ssh2 is not installed. */
  | { code: "ssh-module-missing" }
  /** host "sandbox" in containers: the optional package dockerode is not installed. */
  | { code: "container-module-missing" }
  /** Containers: the engine (Docker or Podman) cannot be reached at `endpoint`; `reason` is the client's account. */
  | { code: "container-engine-unavailable"; endpoint: string; reason: string }
  /** Containers: the configured image is not on the engine (it is never pulled implicitly). */
  | { code: "container-image-missing"; image: string }
  /** Containers: the workdir lies outside the mounted workspace (`root`; undefined when none is mounted). */
  | { code: "container-workdir-outside"; param: "workdir"; cwd: string; root?: string }
  /** Containers: the engine refused to create or start the container; `reason` is its account, one line. */
  | { code: "container-setup-failed"; reason: string }
  /** createContainerExecutor: `user` is uid 0 (or the image maps it to 0) and `allowRoot` is not set. */
  | { code: "container-root-refused"; user: string }
  /** Containers: `workspace` would hand the command the host (`reason`: a system folder, an engine's socket, …). */
  | { code: "container-workspace-refused"; path: string; reason: string }
  /** Containers: the container's user cannot enter the operator's workspace (`owner` uid:gid, `mode` octal). */
  | { code: "container-workspace-unreachable"; path: string; owner: string; mode: string; user: string }
  /** Containers: the executor holds `maxContainers` containers and a command needed another. */
  | { code: "container-limit"; maxContainers: number }
  /** Containers: the engine at `endpoint` stopped answering (a request and a ping unanswered). */
  | { code: "container-engine-unresponsive"; endpoint: string; waitedMs: number }
  /** EXEC-10: `node` names no configured node (undefined: omitted while several are configured). */
  | { code: "unknown-node"; param: "node"; node: string | undefined; knownNodes: string[] }
  /** host "node": the connection or its session could not be opened. */
  | { code: "node-connect-failed"; param: "node"; node: string; reason: string }
  /** host "node": the connection is up but the server refused a channel (sshd MaxSessions, …). */
  | { code: "node-channel-refused"; param: "node"; node: string; reason: string }
  /** createSshExecutor: a configured node lacks a host key check or credentials. */
  | { code: "node-misconfigured"; node: string; missing: "host-key" | "credentials" }
  /**
   * An embedder's option (or the MCP server's flag) has a value it cannot use: `expected` says what it takes, e.g.
   * "an integer of at least 1"; a delay takes 0 to 2147483647 ms, the longest a Node.js timer waits (issue 20).
   */
  | { code: "invalid-option"; owner: OptionOwner; option: string; value: string; expected: string }
  /** createSshExecutor: a node's hostKey is empty or holds no public key. */
  | { code: "node-misconfigured"; node: string; invalid: "hostKey"; value: string }
  /** MCP server: the client called a tool the server does not offer (`tools`: the ones it does). */
  | { code: "unknown-tool"; tool: string; tools: string[] }
  /** wakeOnExit: `nextRun()` was waiting when its loop stopped (`stop()`, `engine.dispose()`): no wake run follows. */
  | { code: "wake-stopped" }
  /** MCP server: a tool call failed in a way no other code describes; the details go to the server's log only. */
  | { code: "tool-call-failed" }
  /** MCP server over HTTP: a request refused before it reached an MCP session, and why. */
  | { code: "http-request-refused"; reason: HttpRefusalReason }
  /** MCP server over HTTP: an initialize while `maxSessions` (--max-sessions) sessions are open (issue 32). */
  | { code: "http-request-refused"; reason: "session-limit"; maxSessions: number }
  /** MCP server: a JSON-RPC message (a stdio line, an HTTP body) over `limitBytes`, refused unread (issue 32). */
  | { code: "request-too-large"; limitBytes: number }
  /** MCP server: what ended it (an uncaught error, its output or input failing), one line without a stack (issue 32). */
  | { code: "server-fatal"; reason: string }
  /** A session host (issue 33) cannot be reached: down, its socket gone, or closed before it answered the greeting. */
  | { code: "session-host-unreachable"; host: string; reason: HostUnreachableReason }
  /** The connection to a session host broke while a call was in flight: the call's outcome is unknown. */
  | { code: "session-host-lost"; host: string }
  /** The session host is another instance than the one this client used the scope with: the scope's sessions are gone. */
  | { code: "session-host-restarted"; host: string; scopeKey: string }
  /** The session host refused this client (a wrong token, a call before the greeting, another protocol version). */
  | { code: "session-host-refused"; host: string; reason: HostRefusalReason }
  /** The session host is at a limit: `clients` connected, or `scopes` used by this client. */
  | { code: "session-host-limit"; host: string; limit: "clients" | "scopes"; max: number }
  /**
   * LC-13: a tool's arguments do not match its schema; one entry per wrong field, `path` from the arguments' root
   * (`["env", "A"]`). Thrown as LangChain's ToolInputParsingException (LC-21), which carries this code and data.
   */
  | { code: "invalid-input"; tool: string; issues: InputIssue[] }
  /** watch (issue 34): an argument of the wrong type or range; `value` is what it got, `expected` what it takes. */
  | { code: "invalid-watch-argument"; param: WatchParam; value: string; expected: string }
  /** watch: `regex: true` and the pattern does not compile; `reason` is the regex engine's account, one line. */
  | { code: "invalid-watch-pattern"; param: "pattern"; pattern: string; reason: string }
  /** watch: the session or the scope already has `limit` active watches (`setting` names the settings row). */
  | { code: "watch-limit"; param: "sessionId"; per: "session" | "scope"; limit: number; setting: string; sessionId: string }
  /** watch: the engine has no `watch` method. */
  | { code: "watch-unsupported" };

/** One field of a tool call that does not match the schema, and what is wrong with it. */
export interface InputIssue {
  path: Array<string | number>;
  message: string;
}

export type ErrorCode = ErrorData["code"];

/** The data of errors of one code: `ErrorDataOf<"env-blocked">` has `blockedKeys`. */
export type ErrorDataOf<Code extends ErrorCode> = Extract<ErrorData, { code: Code }>;

export type { HostRefusalReason, HostUnreachableReason, HttpRefusalReason, SandboxMountProblem };

const BRAND = Symbol.for("langchain-exec-process.ExecProcessError");

/**
 * The one error class of the engine, its executors and its tools. `name` stays "Error" ("AbortError" for an abort)
 * because an agent's tool node shows `String(error)`, `name: message`, to the model (and the kit checks AbortError).
 */
export class ExecProcessError<Code extends ErrorCode = ErrorCode> extends Error {
  readonly code: Code;
  readonly param: ErrorParam | undefined;
  /** The data of this code (an intersection rather than ErrorDataOf, so that ExecProcessError<"aborted"> is an ExecProcessError). */
  readonly data: ErrorData & { code: Code };

  constructor(data: ErrorData & { code: Code }, options?: { cause?: unknown }) {
    super(describeError(data), options);
    this.name = data.code === "aborted" ? "AbortError" : "Error";
    this.code = data.code;
    this.param = paramOf(data);
    this.data = data;
  }

  /**
   * True for an ExecProcessError, also one made by another copy of this package (and for a schema error, code
   * "invalid-input"); with `code`, of that code, and `data` is then typed as that code's data.
   */
  static is<Code extends ErrorCode = ErrorCode>(value: unknown, code?: Code): value is ExecProcessError<Code> {
    const branded = typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
    return branded && (code === undefined || (value as ExecProcessError).code === code);
  }
}

markAsExecProcessError(ExecProcessError.prototype);

/** Lets `ExecProcessError.is` recognize instances of another class that carries `code`, `param` and `data`. */
export function markAsExecProcessError(prototype: object): void {
  Object.defineProperty(prototype, BRAND, { value: true });
}

export function paramOf(data: ErrorData): ErrorParam | undefined {
  return "param" in data ? data.param : undefined;
}

/** The text of an error: the pinned message of messages.ts for its data. */
export function describeError(data: ErrorData): string {
  switch (data.code) {
    case "missing-command": return messages.MISSING_COMMAND;
    case "unsafe-string": return messages.nulByteIn(data.key === undefined ? data.param : `env "${messages.quoteInput(data.key)}"`, data.index);
    case "invalid-host": return messages.invalidHost(data.value);
    case "host-unavailable": return messages.hostUnavailable(data.host);
    case "elevation-unavailable": return messages.ELEVATION_UNAVAILABLE;
    case "env-blocked": return messages.envOverridesRejected(data.blockedKeys, data.invalidKeys);
    case "argument-too-large":
      return messages.argumentTooLarge(data.key === undefined ? data.param : `env "${messages.quoteInput(data.key)}"`, data.bytes, data.limitBytes);
    case "arguments-too-large": return messages.argumentsTooLarge(data.bytes, data.limitBytes);
    case "aborted": return data.beforeStart ? messages.ABORTED_BEFORE_START : messages.ABORTED;
    case "engine-disposed": return messages.ENGINE_DISPOSED;
    case "pty-unavailable": return data.reason;
    case "spawn-failed": return data.reason;
    case "input-queue-full": return messages.ptyInputQueueFull(data.pendingBytes);
    case "stdin-write-failed": return data.reason;
    case "sandbox-unavailable": return messages.sandboxUnavailable(data.bwrapPath, data.reason);
    case "sandbox-workdir-missing": return messages.sandboxWorkdirMissing(data.cwd);
    case "sandbox-workdir-outside": return messages.sandboxWorkdirOutside(data.cwd, data.roots);
    case "sandbox-mount-refused": return messages.sandboxMountRefused(data.option, data.path, data.problem);
    case "sandbox-setup-failed": return messages.sandboxSetupFailed(data.reason);
    case "ssh-module-missing": return messages.SSH_MODULE_MISSING;
    case "container-module-missing": return messages.CONTAINER_MODULE_MISSING;
    case "container-engine-unavailable": return messages.containerEngineUnavailable(data.endpoint, data.reason);
    case "container-image-missing": return messages.containerImageMissing(data.image);
    case "container-workdir-outside": return messages.containerWorkdirOutside(data.cwd, data.root);
    case "container-setup-failed": return messages.containerSetupFailed(data.reason);
    case "container-root-refused": return messages.containerRootRefused(data.user);
    case "container-workspace-refused": return messages.containerWorkspaceRefused(data.path, data.reason);
    case "container-workspace-unreachable": return messages.containerWorkspaceUnreachable(data.path, data.owner, data.mode, data.user);
    case "container-limit": return messages.containerLimit(data.maxContainers);
    case "container-engine-unresponsive": return messages.containerEngineUnresponsive(data.endpoint, data.waitedMs);
    case "unknown-node": return messages.unknownNode(data.node, data.knownNodes);
    case "node-connect-failed": return messages.sshConnectFailed(data.node, data.reason);
    case "node-channel-refused": return messages.sshChannelRefused(data.node, data.reason);
    case "node-misconfigured":
      if ("invalid" in data) return messages.nodeHostKeyInvalid(data.node, data.value);
      return data.missing === "host-key" ? messages.nodeHostKeyRequired(data.node) : messages.nodeAuthRequired(data.node);
    case "invalid-option": return messages.invalidOption(data.owner, data.option, data.value, data.expected);
    case "unknown-tool": return messages.unknownTool(data.tool, data.tools);
    case "wake-stopped": return messages.WAKE_STOPPED;
    case "tool-call-failed": return messages.TOOL_CALL_FAILED;
    case "http-request-refused":
      return data.reason === "session-limit" ? messages.httpSessionLimit(data.maxSessions) : messages.httpRequestRefused(data.reason);
    case "request-too-large": return messages.requestTooLarge(data.limitBytes);
    case "server-fatal": return messages.serverFatal(data.reason);
    case "session-host-unreachable": return messages.sessionHostUnreachable(data.host, data.reason);
    case "session-host-lost": return messages.sessionHostLost(data.host);
    case "session-host-restarted": return messages.sessionHostRestarted(data.host, data.scopeKey);
    case "session-host-refused": return messages.sessionHostRefused(data.host, data.reason);
    case "session-host-limit":
      return data.limit === "clients" ? messages.sessionHostClientLimit(data.host, data.max) : messages.sessionHostScopeLimit(data.host, data.max);
    case "invalid-input": return messages.invalidToolArguments(data.tool, data.issues);
    case "invalid-watch-argument": return messages.invalidWatchArgument(data.param, data.value, data.expected);
    case "invalid-watch-pattern": return messages.invalidWatchPattern(data.pattern, data.reason);
    case "watch-limit": return messages.watchLimitReached(data.per, data.limit, data.setting, data.sessionId);
    case "watch-unsupported": return messages.WATCH_UNSUPPORTED;
  }
}

/** EXEC-40, POLL-11: the rejection of a call whose abort signal fired. */
export const abortError = (when: "before-start" | "during-call" = "during-call"): ExecProcessError =>
  new ExecProcessError(when === "before-start" ? { code: "aborted", beforeStart: true } : { code: "aborted" });

/** RES-24: a spawn error as a spawn-failed ExecProcessError with the same message, the original as its cause. */
export function spawnError(error: unknown): ExecProcessError {
  if (error instanceof ExecProcessError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ExecProcessError({ code: "spawn-failed", reason }, { cause: error });
}
