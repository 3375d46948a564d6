// One call for the common case: an engine and a toolkit over it.
import { createSessionEngine, type LocalSessionEngine, type SessionEngine, type SessionEngineOptions } from "../engine/index.js";
import { ExecToolkit, type ExecToolkitOptions } from "./toolkit.js";

type ToolkitOptions = Omit<ExecToolkitOptions, "engine">;

/** The options of a new in-process engine and of the toolkit over it. */
export type CreateExecToolsOptions = SessionEngineOptions & ToolkitOptions & { engine?: undefined };
/** The toolkit's options over an engine made elsewhere (a session host's: `connectSessionHost`). */
export type CreateExecToolsOnEngineOptions<Engine extends SessionEngine> = ToolkitOptions & { engine: Engine };

export interface ExecTools<Engine extends SessionEngine = LocalSessionEngine> {
  engine: Engine;
  toolkit: ExecToolkit<Engine>;
  /** `[exec, process]`, or `[exec]` with `processTool: false`; then `watch` with `watchTool: true`. */
  tools: ExecToolkit["tools"];
  /** The exit-event middleware for createAgent (LC-19). */
  middleware: ReturnType<ExecToolkit["createMiddleware"]>;
  /** Ends every live process of the engine (KILL-14); an engine of a session host is detached, its jobs run on. */
  dispose(): Promise<void>;
}

/** `const { tools, middleware, dispose } = createExecTools({ agentName: "builder" })`. */
export function createExecTools(options?: CreateExecToolsOptions): ExecTools;
export function createExecTools<Engine extends SessionEngine>(options: CreateExecToolsOnEngineOptions<Engine>): ExecTools<Engine>;
export function createExecTools(
  options: CreateExecToolsOptions | CreateExecToolsOnEngineOptions<SessionEngine> = {},
): ExecTools<SessionEngine> {
  const { scopeKey, agentName, processTool, allowElevated, scopeFromThread, watchTool, engine: given, ...engineOptions } = options;
  const engine = given ?? createSessionEngine(engineOptions);
  const toolkit = new ExecToolkit({
    engine,
    ...(scopeKey !== undefined ? { scopeKey } : {}),
    ...(agentName !== undefined ? { agentName } : {}),
    ...(processTool !== undefined ? { processTool } : {}),
    ...(allowElevated !== undefined ? { allowElevated } : {}),
    ...(scopeFromThread !== undefined ? { scopeFromThread } : {}),
    ...(watchTool !== undefined ? { watchTool } : {}),
  });
  return { engine, toolkit, tools: toolkit.getTools(), middleware: toolkit.createMiddleware(), dispose: () => engine.dispose() };
}
