// The two StructuredTools. They only translate between LangChain and the engine; behaviour lives in the engine.
import type { CallbackManagerForToolRun } from "@langchain/core/callbacks/manager";
import { StructuredTool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { CallContext, ExecProgressDetails, SessionEngine, ToolResult } from "../engine/index.js";
import { EXEC_DESCRIPTION, EXEC_SYNC_DESCRIPTION, PROCESS_DESCRIPTION } from "./descriptions.js";
import { execSchema, execSyncSchema, processSchema } from "./schemas.js";
import { assertValidInput } from "./schema-errors.js";
import { toToolOutput } from "./tool-output.js";

/** How a toolkit binds its tools to an engine. */
export interface ToolBinding {
  readonly engine: SessionEngine;
  readonly processToolAvailable: boolean;
  readonly allowElevated: boolean;
  /** The scope of one call (LC-03, LC-04). */
  scopeFor(config: ToolRunnableConfig | undefined): string;
}

function callContext(binding: ToolBinding, config: ToolRunnableConfig | undefined): CallContext {
  const ctx: CallContext = {
    scopeKey: binding.scopeFor(config),
    processToolAvailable: binding.processToolAvailable,
    allowElevated: binding.allowElevated,
  };
  if (config?.signal) ctx.signal = config.signal; // LC-22
  return ctx;
}

/** LC-17: progress updates as `exec_update` custom events, and on the LangGraph writer when there is one. */
function progressListener(runManager: CallbackManagerForToolRun | undefined, config: ToolRunnableConfig | undefined) {
  const writer = (config as { writer?: (chunk: unknown) => void } | undefined)?.writer;
  return (update: ToolResult<ExecProgressDetails>): void => {
    const payload = { text: update.content[0].text, details: update.details };
    void runManager?.handleCustomEvent("exec_update", payload).catch(() => {});
    writer?.({ event: "exec_update", ...payload });
  };
}

/** Input of `invoke`: plain arguments or a ToolCall carrying them. */
function argsOf(input: unknown): unknown {
  const call = input as { type?: unknown; args?: unknown } | null;
  return call !== null && typeof call === "object" && call.type === "tool_call" ? call.args : input;
}

/** What both tools share: the content-and-artifact format, the binding, and clean schema errors. */
abstract class SessionTool extends StructuredTool {
  override responseFormat = "content_and_artifact" as const;
  protected readonly binding: ToolBinding;

  constructor(binding: ToolBinding) {
    super();
    this.binding = binding;
  }

  override async invoke(input: Parameters<StructuredTool["invoke"]>[0], config?: Parameters<StructuredTool["invoke"]>[1]) {
    assertValidInput(this.name, this.schema as never, argsOf(input));
    return super.invoke(input, config);
  }
}

export class ExecTool extends SessionTool {
  readonly name = "exec";
  readonly description: string;
  readonly schema: typeof execSchema | typeof execSyncSchema;

  constructor(binding: ToolBinding) {
    super(binding);
    this.description = binding.processToolAvailable ? EXEC_DESCRIPTION : EXEC_SYNC_DESCRIPTION; // LC-08
    this.schema = binding.processToolAvailable ? execSchema : execSyncSchema; // LC-15
  }

  protected async _call(input: Record<string, unknown>, runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) {
    const ctx = callContext(this.binding, config);
    ctx.onUpdate = progressListener(runManager, config);
    return toToolOutput(await this.binding.engine.exec(input, ctx), this.name, config);
  }
}

export class ProcessTool extends SessionTool {
  readonly name = "process";
  readonly description = PROCESS_DESCRIPTION;
  readonly schema = processSchema;

  protected async _call(input: Record<string, unknown>, _runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) {
    return toToolOutput(await this.binding.engine.process(input, callContext(this.binding, config)), this.name, config);
  }
}
