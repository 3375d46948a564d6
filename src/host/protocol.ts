// The session host's protocol: JSON-RPC 2.0, one message per line (newline-delimited JSON, as MCP's stdio transport),
// over a unix socket or TCP (TLS off loopback). The first request of a connection is `hello`, with the token; the
// host answers every other method only after it. Host → client messages are notifications: a foreground call's
// progress, and wake requests of the scopes the client subscribed to.
import type { ErrorData, SystemEvent, ToolResult, WakeRequest } from "../engine/index.js";

/** Bumped when a method or a field changes meaning; a client of another version is refused at `hello`. */
export const HOST_PROTOCOL_VERSION = 1;

export interface HelloParams {
  token: string;
  protocolVersion: number;
}
export interface HelloResult {
  /** The host's name, as errors name it. */
  name: string;
  /** Random per start of the host: a client that sees another one knows the host restarted. */
  instanceId: string;
  protocolVersion: number;
}

/** An exec or process call: the engine's params and the call context's plain fields. */
export interface CallParams {
  /** The client's id of the call, for `cancel` and `progress`. */
  callId: number;
  scopeKey: string;
  params: Record<string, unknown>;
  processToolAvailable?: boolean;
  allowElevated?: boolean;
  /** The call's signal had fired before it was sent (EXEC-40: the before-start text). */
  aborted?: boolean;
  /** The client wants `progress` notifications (it has an onUpdate). */
  progress?: boolean;
}
export interface ScopeParams {
  scopeKey: string;
}
export interface SubscribeParams {
  /** null: every scope. */
  scopeKey: string | null;
}
export interface ClaimResult {
  granted: boolean;
}

export interface CancelNotification {
  callId: number;
}
export interface ProgressNotification {
  callId: number;
  result: ToolResult;
}
export interface WakeNotification {
  request: WakeRequest;
}

/** Client → host requests, with their params and results. */
export interface HostMethods {
  hello: { params: HelloParams; result: HelloResult };
  exec: { params: CallParams; result: ToolResult };
  process: { params: CallParams; result: ToolResult };
  /** The engine's watch (issue 34), when the host's engine has it. */
  watch: { params: CallParams; result: ToolResult };
  drainSystemEvents: { params: ScopeParams; result: SystemEvent[] };
  peekSystemEvents: { params: ScopeParams; result: SystemEvent[] };
  clearFinishedSessions: { params: ScopeParams; result: number };
  liveSessionIds: { params: Record<string, never>; result: string[] };
  subscribe: { params: SubscribeParams; result: null };
  claimWakeRun: { params: ScopeParams; result: ClaimResult };
  releaseWakeRun: { params: ScopeParams; result: null };
}
export type HostMethod = keyof HostMethods;

/**
 * JSON-RPC error codes of the host's answers. An ExecProcessError of the engine or of the host itself travels as
 * ENGINE_ERROR with its data, and the client throws the same ExecProcessError again.
 */
export const HOST_ERROR_CODES = Object.freeze({
  ENGINE_ERROR: -32000,
  INVALID_REQUEST: -32600,
  INTERNAL_ERROR: -32603,
});

/** The `data` of an ENGINE_ERROR answer. */
export interface EngineErrorData {
  execProcessError: ErrorData;
}
