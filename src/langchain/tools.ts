// The two StructuredTools. They only translate between LangChain and the engine; behaviour lives in the engine.
import type { CallbackManagerForToolRun } from "@langchain/core/callbacks/manager";
import type { ToolCall, ToolMessage } from "@langchain/core/messages/tool";
import {
  StructuredTool, type StructuredToolCallInput, type ToolReturnType, type ToolRunnableConfig,
} from "@langchain/core/tools";
import type { CallContext, ExecProgressDetails, SessionEngine, ToolDetails, ToolResult } from "../engine/index.js";
import type { execSchema, execSyncSchema, processSchema, watchSchema, ExecInput, ProcessInput, WatchInput } from "../tool-spec/schemas.js";
import { watchOn } from "../tool-spec/run-tool.js";
import { execToolSpec, PROCESS_TOOL_SPEC, WATCH_TOOL_SPEC } from "../tool-spec/tool-specs.js";
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

/**
 * Under content_and_artifact `_call` returns the pair and `invoke` resolves to its content (or a ToolMessage for a
 * ToolCall); LangChain types `_call` by what `invoke` resolves to.
 */
const asContent = (pair: [string | ToolMessage, ToolDetails]): string => pair as unknown as string;

/** Input of `invoke`: plain arguments or a ToolCall carrying them. */
function argsOf(input: unknown): unknown {
  const call = input as { type?: unknown; args?: unknown } | null;
  return call !== null && typeof call === "object" && call.type === "tool_call" ? call.args : input;
}

/** Plain arguments may hold only the documented fields: `{ comand: "x" }` or `{ command, yeldMs: 5 }` do not compile. */
type OnlyFields<Input, Fields> = Input extends ToolCall | string ? unknown : { [Key in Exclude<keyof Input, keyof Fields>]: never };

/**
 * What both tools share: the content-and-artifact format, the binding, and clean schema errors. `invoke` takes the
 * tool's arguments (and resolves to the text the model reads) or a ToolCall (and resolves to a ToolMessage).
 */
abstract class SessionTool<
  SchemaT extends typeof execSchema | typeof execSyncSchema | typeof processSchema | typeof watchSchema,
  Input extends ExecInput | ProcessInput | WatchInput,
> extends StructuredTool<SchemaT, Input, Input, string> {
  override responseFormat = "content_and_artifact" as const;
  protected readonly binding: ToolBinding;

  constructor(binding: ToolBinding) {
    super();
    this.binding = binding;
  }

  override async invoke<TInput extends StructuredToolCallInput<SchemaT, Input>, TConfig extends ToolRunnableConfig | undefined>(
    input: TInput & OnlyFields<TInput, Input>, config?: TConfig,
  ): Promise<ToolReturnType<TInput, TConfig, string>> {
    assertValidInput(this.name, this.schema, argsOf(input));
    return super.invoke(input, config);
  }
}

export class ExecTool extends SessionTool<typeof execSchema | typeof execSyncSchema, ExecInput> {
  readonly name = "exec";
  readonly description: string;
  readonly schema: typeof execSchema | typeof execSyncSchema;

  constructor(binding: ToolBinding) {
    super(binding);
    ({ description: this.description, schema: this.schema } = execToolSpec(binding.processToolAvailable)); // LC-08, LC-15
  }

  protected async _call(input: ExecInput, runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) {
    const ctx = callContext(this.binding, config);
    ctx.onUpdate = progressListener(runManager, config);
    return asContent(toToolOutput(await this.binding.engine.exec(input, ctx), this.name, config));
  }
}

export class ProcessTool extends SessionTool<typeof processSchema, ProcessInput> {
  readonly name = "process";
  readonly description = PROCESS_TOOL_SPEC.description;
  readonly schema = PROCESS_TOOL_SPEC.schema;

  protected async _call(input: ProcessInput, _runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) {
    return asContent(toToolOutput(await this.binding.engine.process(input, callContext(this.binding, config)), this.name, config));
  }
}

/** The `watch` tool (issue 34): offered only with `watchTool: true`; its events reach the model as exit events do. */
export class WatchTool extends SessionTool<typeof watchSchema, WatchInput> {
  readonly name = "watch";
  readonly description = WATCH_TOOL_SPEC.description;
  readonly schema = WATCH_TOOL_SPEC.schema;

  protected async _call(input: WatchInput, _runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) {
    return asContent(toToolOutput(await watchOn(this.binding.engine, input, callContext(this.binding, config)), this.name, config));
  }
}
