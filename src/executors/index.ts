// Real host executors for `host: "sandbox"` and `host: "node"` (EXEC-08, EXEC-09).
export { createSandboxExecutor } from "./sandbox/sandbox-executor.js";
export type { SandboxBind, SandboxExecutorOptions } from "./sandbox/sandbox-executor.js";
