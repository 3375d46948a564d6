// langchain-exec-process: OpenClaw-style exec and process tools for LangChain.js and LangGraph.
export { ExecToolkit, DEFAULT_SCOPE } from "./langchain/toolkit.js";
export type { ExecToolkitOptions } from "./langchain/toolkit.js";
export { ExecTool, ProcessTool, WatchTool } from "./langchain/tools.js";
export { execSchema, execSyncSchema, processSchema, watchSchema } from "./tool-spec/schemas.js";
export type { ExecInput, ProcessInput, WatchInput } from "./tool-spec/schemas.js";
export * from "./engine/index.js";
export * from "./executors/index.js";
export { createExecTools } from "./langchain/create-exec-tools.js";
export type { CreateExecToolsOnEngineOptions, CreateExecToolsOptions, ExecTools } from "./langchain/create-exec-tools.js";
export { createExitEventMiddleware, createExitEventNode } from "./langchain/exit-events.js";
export { DEFAULT_WAKE_DEBOUNCE_MS, DEFAULT_WAKE_MAX_RUNS_PER_MINUTE } from "./langchain/wake-on-exit.js";
export type {
  WakeableRunnable, WakeOnExitHandle, WakeOnExitOptions, WakeResult, WakeRun, WakeRunConfig,
} from "./langchain/wake-on-exit.js";
export * from "./host/index.js";
