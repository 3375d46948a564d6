// One call for the common case: an engine and a toolkit over it.
import { createSessionEngine, type SessionEngine, type SessionEngineOptions } from "../engine/index.js";
import { ExecToolkit, type ExecToolkitOptions } from "./toolkit.js";

export type CreateExecToolsOptions = SessionEngineOptions & Omit<ExecToolkitOptions, "engine">;

export interface ExecTools {
  engine: SessionEngine;
  toolkit: ExecToolkit;
  /** `[exec, process]`, or `[exec]` with `processTool: false`. */
  tools: ExecToolkit["tools"];
  /** The exit-event middleware for createAgent (LC-19). */
  middleware: ReturnType<ExecToolkit["createMiddleware"]>;
  /** Ends every live process of the engine (KILL-14). */
  dispose(): Promise<void>;
}

/** `const { tools, middleware, dispose } = createExecTools({ agentName: "builder" })`. */
export function createExecTools(options: CreateExecToolsOptions = {}): ExecTools {
  const { scopeKey, agentName, processTool, allowElevated, scopeFromThread, ...engineOptions } = options;
  const engine = createSessionEngine(engineOptions);
  const toolkit = new ExecToolkit({
    engine,
    ...(scopeKey !== undefined ? { scopeKey } : {}),
    ...(agentName !== undefined ? { agentName } : {}),
    ...(processTool !== undefined ? { processTool } : {}),
    ...(allowElevated !== undefined ? { allowElevated } : {}),
    ...(scopeFromThread !== undefined ? { scopeFromThread } : {}),
  });
  return { engine, toolkit, tools: toolkit.getTools(), middleware: toolkit.createMiddleware(), dispose: () => engine.dispose() };
}
