// Real host executors for `host: "sandbox"` and `host: "node"` (EXEC-08, EXEC-09).
export { createSandboxExecutor } from "./sandbox/sandbox-executor.js";
export type { SandboxBind, SandboxExecutorOptions } from "./sandbox/sandbox-executor.js";
export { createSshExecutor } from "./ssh/ssh-executor.js";
export type { SshExecutor } from "./ssh/ssh-executor.js";
export { REMOTE_ENV_KEYS } from "./ssh/ssh-options.js";
export type { SshExecutorOptions, SshNode } from "./ssh/ssh-options.js";
export { createContainerExecutor } from "./container/container-executor.js";
export type { ContainerExecutor, ContainerExecutorOptions } from "./container/container-executor.js";
export type { ContainerScope, DockerConnection, WorkspaceAccess } from "./container/container-options.js";
