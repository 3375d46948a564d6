// The framework-free session engine.
export { createSessionEngine } from "./engine.js";
export { attachChildProcessBridge, DEFAULT_BRIDGE_SIGNALS } from "./child-process-bridge.js";
export type { ChildProcessBridge, ChildProcessBridgeOptions } from "./child-process-bridge.js";
export { ExecProcessError, describeError } from "./errors.js";
export type { ProcessAction } from "./process/normalize-process.js";
export type {
  ErrorCode, ErrorData, ErrorDataOf, ErrorParam, HostRefusalReason, HostUnreachableReason, HttpRefusalReason, InputIssue,
  OptionOwner, SandboxMountProblem, WatchParam,
} from "./errors.js";
export { SETTINGS_TABLE, LIMITS, resolveSettings, describeSettingsTable } from "./settings.js";
export type { Settings, ExecConfig } from "./settings.js";
export type {
  CallContext, ExecParams, ExecutorProcess, ExecutorSpawnRequest, HostExecutor, LocalSessionEngine, MaybePromise, ProcessParams,
  ResultStatus, SessionEngine, SessionEngineOptions, SystemEvent, ToolResult, WakeListener, WakeRequest, WatchParams,
} from "./types.js";
export type {
  ExecCompletedDetails, ExecDetails, ExecFailedDetails, ExecProgressDetails, ExecRunningDetails, Exclusive, ExitFields,
  FailureKind, InputDetails, InputWaitFields, KillDetails, ListDetails, ListEntry, ListFinishedEntry, ListRunningEntry,
  LogFinishedDetails, LogRunningDetails, LogTotals, PollExitedDetails, PollRunningDetails, ProcessDetails,
  ProcessFailureDetails, RemovedDetails, ToolDetails, WatchDetails, WatchView, WorkdirFailureDetails,
} from "./result-details.js";
export type { ExitReason, OutcomeStatus } from "./session.js";
export type { SpawnFaults } from "./spawn/faults.js";
export {
  abortError, checkExecLimits, localShell, processGroupMembers, sessionMembers, signalProcess, spawnLocal, TERMINAL_EOF,
  terminalName, TERMINAL_SIZE, validateTimerDelay,
} from "./executor-kit.js";
export type { CursorKeyMode, LocalProcess, LocalProcessSink, LocalSpawnRequest, TerminationSignal } from "./executor-kit.js";
