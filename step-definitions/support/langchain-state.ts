// What the LangChain steps (capability "langchain") keep per scenario, beside the shared World: the toolkit in use
// and what the last description, invocation, drain or before-model hook returned.
import type {
  AdapterInstance, ChatMessage, InvocationOutcome, ToolDescription, ToolkitDescription, ToolkitSpec,
} from "../../conformance/adapter.js";
import type { ConformanceWorld } from "./world.js";

export interface LangChainState {
  /** The toolkit of the next invocations, as data; `{}` = the toolkit with every option at its default. */
  toolkit: ToolkitSpec;
  description?: ToolkitDescription;
  outcome?: InvocationOutcome;
  /** The messages of the last drain, or the conversation after the last before-model hook. */
  messages?: ChatMessage[];
}

const states = new WeakMap<ConformanceWorld, LangChainState>();

export function langchainOf(world: ConformanceWorld): LangChainState {
  let state = states.get(world);
  if (!state) states.set(world, (state = { toolkit: {} }));
  return state;
}

type LangChainInstance = Required<Pick<AdapterInstance, "describeToolkit" | "invokeTool" | "drainEventMessages" | "applyBeforeModel">>;

/** The started instance's capability methods; scenarios that use them are tagged @langchain. */
export async function langchainInstance(world: ConformanceWorld): Promise<LangChainInstance> {
  const instance = await world.ensureStarted();
  const { describeToolkit, invokeTool, drainEventMessages, applyBeforeModel } = instance;
  if (!describeToolkit || !invokeTool || !drainEventMessages || !applyBeforeModel) {
    throw new Error('The implementation does not offer the "langchain" capability; tag the scenario @langchain.');
  }
  return {
    describeToolkit: describeToolkit.bind(instance),
    invokeTool: invokeTool.bind(instance),
    drainEventMessages: drainEventMessages.bind(instance),
    applyBeforeModel: applyBeforeModel.bind(instance),
  };
}

/** A tool of the last description, by name. */
export function describedTool(world: ConformanceWorld, name: string): ToolDescription {
  const description = langchainOf(world).description;
  if (!description) throw new Error('No toolkit has been described yet; use "the toolkit is described" first.');
  const tool = description.tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`The toolkit has no tool named "${name}" (tools: ${description.tools.map((t) => t.name).join(", ")}).`);
  return tool;
}

type JsonSchema = Record<string, unknown>;

/** A schema's properties and required names, as a model is shown them. */
export function schemaParts(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  return {
    properties: (schema["properties"] ?? {}) as Record<string, JsonSchema>,
    required: (schema["required"] ?? []) as string[],
  };
}

/**
 * A property's type in the words of SPEC §13: `string`, `number`, `boolean`, `array of string`, `record of string`,
 * `number or string` (a union of types).
 */
export function typeName(schema: JsonSchema): string {
  const union = (schema["anyOf"] ?? schema["oneOf"]) as JsonSchema[] | undefined;
  if (union) return union.map(typeName).join(" or ");
  const type = schema["type"];
  if (Array.isArray(type)) return type.join(" or ");
  if (type === "array") return `array of ${typeName((schema["items"] ?? {}) as JsonSchema)}`;
  if (type === "object" && typeof schema["additionalProperties"] === "object") {
    return `record of ${typeName(schema["additionalProperties"] as JsonSchema)}`;
  }
  return typeof type === "string" ? type : JSON.stringify(schema);
}
