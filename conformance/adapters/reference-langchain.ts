// Capability "langchain" of the reference adapter (SPEC §13): toolkits built from data, their tools as a model
// sees them, invocations as a LangChain host makes them, and the exit-event delivery of LC-18/LC-19.
import {
  AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage,
} from "@langchain/core/messages";
import { ToolInputParsingException, type StructuredTool } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { z } from "zod";
import type {
  BeforeModelRequest, ChatMessage, CustomEvent, EventMessagesRequest, InvocationOutcome, ToolInvocation,
  ToolkitDescription, ToolkitSpec,
} from "../adapter.js";
import type { SessionEngine } from "../../src/engine/index.js";
import { ExecToolkit } from "../../src/langchain/toolkit.js";
import { scheduleAbort } from "./scheduled-abort.js";

/** The four methods of the capability, bound to one engine; `invokeTool` also takes an outside abort signal. */
export interface LangChainSurface {
  describeToolkit(toolkit: ToolkitSpec): Promise<ToolkitDescription>;
  invokeTool(invocation: ToolInvocation, signal?: AbortSignal): Promise<InvocationOutcome>;
  drainEventMessages(request: EventMessagesRequest): Promise<ChatMessage[]>;
  applyBeforeModel(request: BeforeModelRequest): Promise<ChatMessage[]>;
}

export function createLangChainSurface(engine: SessionEngine): LangChainSurface {
  const toolkits = new Map<string, ExecToolkit>();
  // One toolkit per distinct spec, so that repeated invocations share it as one agent's calls would.
  const toolkitFor = (spec: ToolkitSpec): ExecToolkit => {
    const key = JSON.stringify(Object.entries(spec ?? {}).sort(([a], [b]) => a.localeCompare(b)));
    let toolkit = toolkits.get(key);
    if (!toolkit) toolkits.set(key, (toolkit = new ExecToolkit({ engine, ...spec })));
    return toolkit;
  };
  let invocations = 0;
  return {
    describeToolkit: async (spec) => describe(toolkitFor(spec)),
    async invokeTool(invocation, signal) {
      const toolkit = toolkitFor(invocation.toolkit);
      const tool = invocation.tool === "exec" ? toolkit.exec : toolkit.process;
      if (!tool) return { kind: "rejection", message: "The toolkit has no process tool.", name: "Error", schemaError: false, events: [] };
      invocations += 1;
      return invoke(tool, invocation, `lc-call-${invocations}`, signal);
    },
    drainEventMessages: async ({ toolkit, threadId }) =>
      (await toolkitFor(toolkit).drainEventMessages(threadId !== undefined ? { threadId } : {})).map(toChatMessage),
    async applyBeforeModel({ toolkit, messages }) {
      const middleware = toolkitFor(toolkit).createMiddleware() as unknown as {
        beforeModel: (state: { messages: BaseMessage[] }, runtime: object) => Promise<{ messages?: BaseMessage[] } | undefined> | { messages?: BaseMessage[] } | undefined;
      };
      const conversation = messages.map(fromChatMessage);
      const update = await middleware.beforeModel({ messages: conversation }, {});
      return [...conversation, ...(update?.messages ?? [])].map(toChatMessage); // the messages reducer appends
    },
  };
}

function describe(toolkit: ExecToolkit): ToolkitDescription {
  return {
    scopeKey: toolkit.scopeKey,
    tools: toolkit.getTools().map((tool) => ({
      name: tool.name,
      description: tool.description,
      schema: toJsonSchema(tool.schema as z.ZodType) as Record<string, unknown>,
    })),
  };
}

async function invoke(
  tool: StructuredTool, invocation: ToolInvocation, id: string, outside?: AbortSignal,
): Promise<InvocationOutcome> {
  const events: CustomEvent[] = [];
  // Never cancelled: the run's signal fires at abortAfterMs even after the tool returned (LC-22, EXEC-41).
  const { signal } = scheduleAbort(invocation.abortAfterMs);
  const config = {
    signal: outside ? AbortSignal.any([signal, outside]) : signal,
    callbacks: [{ handleCustomEvent: (name: string, data: unknown) => void events.push({ name, data }) }],
    ...(invocation.threadId !== undefined ? { configurable: { thread_id: invocation.threadId } } : {}),
  };
  const input = invocation.asToolCall
    ? { type: "tool_call" as const, id, name: tool.name, args: invocation.args }
    : invocation.args;
  try {
    const value: unknown = await tool.invoke(input as never, config);
    if (!(value instanceof ToolMessage)) return { kind: "return", value, events };
    return { kind: "message", content: value.content, artifact: value.artifact, status: value.status ?? "success", events };
  } catch (error) {
    const { message, name } = error as Error;
    return { kind: "rejection", message: String(message), name: String(name), schemaError: error instanceof ToolInputParsingException, events };
  }
}

function toChatMessage(message: BaseMessage): ChatMessage {
  return { type: message.getType(), content: message.content };
}

function fromChatMessage(message: ChatMessage): BaseMessage {
  const content = message.content as string;
  switch (message.type) {
    case "human": return new HumanMessage({ content });
    case "ai": return new AIMessage({ content });
    case "system": return new SystemMessage({ content });
    default: throw new Error(`a conversation message must be of type human, ai or system (got ${JSON.stringify(message.type)})`);
  }
}
