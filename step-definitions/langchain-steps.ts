// Steps of the LangChain surface (SPEC §13, capability "langchain"): toolkits described as data, the tools as a
// model sees them, invocations as a LangChain host makes them, and exit events delivered to the conversation.
// An invocation with a tool call also becomes the last call, so the text, detail and rejection steps apply to it.
import { Given, Then, When, type DataTable } from "@cucumber/cucumber";
import assert from "node:assert/strict";
import type { CallOutcome, ChatMessage, InvocationOutcome, ToolInvocation } from "../conformance/adapter.js";
import {
  describedTool, langchainInstance, langchainOf, schemaParts, typeName,
} from "./support/langchain-state.js";
import { block, inline, parseJsonArgs, partialMatch, show, substitute } from "./support/text.js";
import type { ConformanceWorld } from "./support/world.js";

type Tool = "exec" | "process";

/** How long "N events are queued" waits, as the other waiting steps do. */
const EVENT_LIMIT_MS = 60_000;

function toolName(name: string): Tool {
  if (name !== "exec" && name !== "process") throw new Error(`The tool must be exec or process (got "${name}").`);
  return name;
}

function parseJson(world: ConformanceWorld, text: string): unknown {
  const substituted = substitute(world, text);
  try {
    return JSON.parse(substituted);
  } catch (error) {
    throw new Error(`The step argument must be JSON, got: ${substituted} (${(error as Error).message})`);
  }
}

/** Descriptions are read for their sense (LC-09): a mention is case-insensitive. */
const mentions = (text: string, word: string): boolean => text.toLowerCase().includes(word.toLowerCase());

// ---- the toolkit ----

Given("a LangChain toolkit with {string}", function (this: ConformanceWorld, json: string) {
  langchainOf(this).toolkit = parseJsonArgs(this, json);
});

When("the toolkit is described", async function (this: ConformanceWorld) {
  const state = langchainOf(this);
  state.description = await (await langchainInstance(this)).describeToolkit(state.toolkit);
  this.scopesUsed.add(state.description.scopeKey);
});

Then("the toolkit's scope key is {string}", function (this: ConformanceWorld, expected: string) {
  assert.equal(langchainOf(this).description?.scopeKey, inline(this, expected));
});

Then("the toolkit's tools are {string}", function (this: ConformanceWorld, json: string) {
  assert.deepEqual(langchainOf(this).description?.tools.map((tool) => tool.name), parseJson(this, json));
});

// ---- descriptions and schemas ----

Then("the {word} tool's description is exactly:", function (this: ConformanceWorld, tool: string, expected: string) {
  const actual = describedTool(this, tool).description;
  assert.ok(actual === block(this, expected), `description differs.\n  expected: ${show(block(this, expected))}\n  actual:   ${show(actual)}`);
});

Then("the {word} tool's description mentions {string}", function (this: ConformanceWorld, tool: string, word: string) {
  const actual = describedTool(this, tool).description;
  assert.ok(mentions(actual, inline(this, word)), `the ${tool} description does not mention ${show(word)}: ${show(actual)}`);
});

Then("the {word} tool's description does not mention {string}", function (this: ConformanceWorld, tool: string, word: string) {
  const actual = describedTool(this, tool).description;
  assert.ok(!mentions(actual, inline(this, word)), `the ${tool} description mentions ${show(word)}: ${show(actual)}`);
});

Then("the {word} tool's schema requires exactly {string}", function (this: ConformanceWorld, tool: string, json: string) {
  const { required } = schemaParts(describedTool(this, tool).schema);
  assert.deepEqual([...required].sort(), (parseJson(this, json) as string[]).sort());
});

/** Every listed property is declared with that type; further properties are allowed (an alias, LC-11). */
Then("the {word} tool's schema has the properties:", function (this: ConformanceWorld, tool: string, table: DataTable) {
  const { properties } = schemaParts(describedTool(this, tool).schema);
  const expected = Object.fromEntries(table.hashes().map((row) => [row["property"], row["type"]]));
  const actual = Object.fromEntries(Object.keys(expected).map((name) => [name, properties[name] ? typeName(properties[name]) : "(not declared)"]));
  assert.deepEqual(actual, expected);
});

Then("the {word} tool's schema has the property {string}", function (this: ConformanceWorld, tool: string, name: string) {
  const { properties } = schemaParts(describedTool(this, tool).schema);
  assert.ok(name in properties, `the ${tool} schema does not declare "${name}": ${Object.keys(properties).join(", ")}`);
});

Then("the {word} tool's schema has no property {string}", function (this: ConformanceWorld, tool: string, name: string) {
  const { properties } = schemaParts(describedTool(this, tool).schema);
  assert.ok(!(name in properties), `the ${tool} schema declares "${name}": ${JSON.stringify(properties[name])}`);
});

function parameter(world: ConformanceWorld, tool: string, name: string): Record<string, unknown> {
  const property = schemaParts(describedTool(world, tool).schema).properties[name];
  if (!property) throw new Error(`The ${tool} schema has no property "${name}".`);
  return property;
}

Then("the {word} tool's parameter {string} is a plain string", function (this: ConformanceWorld, tool: string, name: string) {
  const property = parameter(this, tool, name);
  assert.equal(typeName(property), "string");
  for (const key of ["enum", "const", "pattern"]) assert.ok(!(key in property), `"${name}" is restricted by "${key}": ${JSON.stringify(property)}`);
});

Then("the {word} tool's parameter {string} has the description:", function (this: ConformanceWorld, tool: string, name: string, expected: string) {
  assert.equal(parameter(this, tool, name)["description"], block(this, expected));
});

Then("the {word} tool's parameter {string} has a description mentioning {string}", function (this: ConformanceWorld, tool: string, name: string, word: string) {
  const description = String(parameter(this, tool, name)["description"] ?? "");
  assert.ok(mentions(description, inline(this, word)), `the description of "${name}" does not mention ${show(word)}: ${show(description)}`);
});

// ---- invocations ----

async function invoke(world: ConformanceWorld, invocation: Omit<ToolInvocation, "toolkit">): Promise<void> {
  const state = langchainOf(world);
  const outcome = await (await langchainInstance(world)).invokeTool({ toolkit: state.toolkit, ...invocation });
  state.outcome = outcome;
  const asCall = asCallOutcome(outcome);
  if (asCall) world.record({ outcome: asCall, startedAt: Date.now(), durationMs: 0, tool: invocation.tool });
}

/** The invocation in the shape of a plain call, so that the last-call steps read it; a plain return has none. */
function asCallOutcome(outcome: InvocationOutcome): CallOutcome | undefined {
  if (outcome.kind === "rejection") return { kind: "error", message: outcome.message, name: outcome.name };
  if (outcome.kind === "return") return undefined;
  const details = typeof outcome.artifact === "object" && outcome.artifact !== null ? outcome.artifact as Record<string, unknown> : {};
  const text = typeof outcome.content === "string" ? outcome.content : JSON.stringify(outcome.content);
  const updates = outcome.events.filter((event) => event.name === "exec_update").map((event) => event.data as never);
  return { kind: "result", text, details, isError: outcome.status === "error", updates };
}

When("the toolkit's {word} tool is invoked with a tool call {string}", async function (this: ConformanceWorld, tool: string, json: string) {
  await invoke(this, { tool: toolName(tool), args: parseJsonArgs(this, json), asToolCall: true });
});

When("the toolkit's {word} tool is invoked with plain arguments {string}", async function (this: ConformanceWorld, tool: string, json: string) {
  await invoke(this, { tool: toolName(tool), args: parseJsonArgs(this, json), asToolCall: false });
});

When("the toolkit's {word} tool is invoked in thread {string} with a tool call {string}", async function (this: ConformanceWorld, tool: string, thread: string, json: string) {
  this.scopesUsed.add(`thread:${thread}`);
  await invoke(this, { tool: toolName(tool), args: parseJsonArgs(this, json), asToolCall: true, threadId: thread });
});

When("the toolkit's {word} tool is invoked with a tool call {string} whose run is aborted after {int} ms", async function (this: ConformanceWorld, tool: string, json: string, ms: number) {
  await invoke(this, { tool: toolName(tool), args: parseJsonArgs(this, json), asToolCall: true, abortAfterMs: ms });
});

function lastInvocation(world: ConformanceWorld): InvocationOutcome {
  const outcome = langchainOf(world).outcome;
  if (!outcome) throw new Error("No tool has been invoked through the toolkit yet.");
  return outcome;
}

function expectKind<K extends InvocationOutcome["kind"]>(world: ConformanceWorld, kind: K): Extract<InvocationOutcome, { kind: K }> {
  const outcome = lastInvocation(world);
  if (outcome.kind === "rejection") world.errorChecked = true;
  assert.equal(outcome.kind, kind, `expected a ${kind}, got ${JSON.stringify(outcome).slice(0, 400)}`);
  return outcome as Extract<InvocationOutcome, { kind: K }>;
}

Then("the invocation produced a tool message with status {string}", function (this: ConformanceWorld, status: string) {
  assert.equal(expectKind(this, "message").status, status);
});

Then("the tool message content is a string and its artifact an object", function (this: ConformanceWorld) {
  const message = expectKind(this, "message");
  assert.equal(typeof message.content, "string", `content: ${JSON.stringify(message.content)}`);
  assert.ok(typeof message.artifact === "object" && message.artifact !== null && !Array.isArray(message.artifact),
    `artifact: ${JSON.stringify(message.artifact)}`);
});

Then("the invocation returned the plain text {string}", function (this: ConformanceWorld, expected: string) {
  assert.equal(expectKind(this, "return").value, inline(this, expected));
});

Then("the invocation was rejected with a schema-validation error", function (this: ConformanceWorld) {
  assert.equal(expectKind(this, "rejection").schemaError, true, "the rejection is not the framework's schema-validation error");
});

Then("the invocation was rejected, but not with a schema-validation error", function (this: ConformanceWorld) {
  assert.equal(expectKind(this, "rejection").schemaError, false, "the rejection is a schema-validation error");
});

// ---- custom events (LC-17) ----

Then("at least {int} custom event(s) named {string} was/were dispatched", function (this: ConformanceWorld, count: number, name: string) {
  const events = lastInvocation(this).events.filter((event) => event.name === name);
  assert.ok(events.length >= count, `${events.length} "${name}" events: ${JSON.stringify(lastInvocation(this).events).slice(0, 400)}`);
});

Then("every custom event {string} has a payload of exactly {string}", function (this: ConformanceWorld, name: string, json: string) {
  for (const event of lastInvocation(this).events.filter((candidate) => candidate.name === name)) {
    const data = event.data as Record<string, unknown>;
    assert.deepEqual(Object.keys(data ?? {}).sort(), (parseJson(this, json) as string[]).sort());
  }
});

Then("every custom event {string} has a string text and details containing:", function (this: ConformanceWorld, name: string, json: string) {
  const expected = parseJson(this, json);
  for (const event of lastInvocation(this).events.filter((candidate) => candidate.name === name)) {
    const data = event.data as { text?: unknown; details?: unknown };
    assert.equal(typeof data.text, "string", `text of ${JSON.stringify(data)}`);
    assert.ok(partialMatch(data.details, expected), `details ${JSON.stringify(data.details)} do not contain ${JSON.stringify(expected)}`);
  }
});

// ---- event messages and the before-model hook (LC-18, LC-19) ----

When("the toolkit's event messages are drained", async function (this: ConformanceWorld) {
  const state = langchainOf(this);
  state.messages = await (await langchainInstance(this)).drainEventMessages({ toolkit: state.toolkit });
});

When("the toolkit's event messages of thread {string} are drained", async function (this: ConformanceWorld, thread: string) {
  const state = langchainOf(this);
  state.messages = await (await langchainInstance(this)).drainEventMessages({ toolkit: state.toolkit, threadId: thread });
});

When("the middleware's before-model hook runs on the conversation {string}", async function (this: ConformanceWorld, json: string) {
  const state = langchainOf(this);
  const messages = parseJson(this, json) as ChatMessage[];
  state.messages = await (await langchainInstance(this)).applyBeforeModel({ toolkit: state.toolkit, messages });
});

function lastMessages(world: ConformanceWorld): ChatMessage[] {
  const messages = langchainOf(world).messages;
  if (!messages) throw new Error("No event messages were drained and no before-model hook ran yet.");
  return messages;
}

Then("no event message was returned", function (this: ConformanceWorld) {
  assert.deepEqual(lastMessages(this), []);
});

Then("one human message was returned with the content:", function (this: ConformanceWorld, expected: string) {
  assert.deepEqual(lastMessages(this), [{ type: "human", content: block(this, expected) }]);
});

/** LC-18: the drained texts, each prefixed with `System: `, joined by `\n`, in enqueue order. */
function peekedAsSystemLines(world: ConformanceWorld): ChatMessage {
  if (world.events.length === 0) throw new Error('No events were peeked; use "the events of scope … are peeked" first.');
  return { type: "human", content: world.events.map((event) => `System: ${event.text}`).join("\n") };
}

Then("one human message was returned with the peeked event texts as {string} lines", function (this: ConformanceWorld, prefix: string) {
  assert.equal(prefix, "System: ", 'the prefix of LC-18 is "System: "');
  assert.deepEqual(lastMessages(this), [peekedAsSystemLines(this)]);
});

Then("the conversation is {string} followed by the peeked event texts as {string} lines", function (this: ConformanceWorld, json: string, prefix: string) {
  assert.equal(prefix, "System: ", 'the prefix of LC-18 is "System: "');
  assert.deepEqual(lastMessages(this), [...(parseJson(this, json) as ChatMessage[]), peekedAsSystemLines(this)]);
});

When("{int} events are queued for scope {string}", async function (this: ConformanceWorld, count: number, scope: string) {
  const instance = await this.ensureStarted();
  const deadline = Date.now() + EVENT_LIMIT_MS;
  while ((await instance.peekEvents(scope)).length < count) {
    if (Date.now() > deadline) throw new Error(`Fewer than ${count} events were queued for scope ${scope} within ${EVENT_LIMIT_MS} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

Then("the conversation is {string}", function (this: ConformanceWorld, json: string) {
  assert.deepEqual(lastMessages(this), parseJson(this, json));
});

// ---- concurrent calls (LC-24, plain calls) ----

/** Awaits started calls (each becomes the last call in turn) and returns their texts. */
async function startedTexts(world: ConformanceWorld, names: string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const name of names) {
    const pending = world.started.get(name);
    if (!pending) throw new Error(`No call was started as "${name}".`);
    world.started.delete(name);
    world.record(await pending);
    texts.push(world.lastResult().text);
  }
  return texts;
}

const linesMatching = (text: string, pattern: RegExp): string[] => text.split("\n").filter((line) => pattern.test(line));

Then("the started calls {string} and {string} share no line matching {string}", async function (this: ConformanceWorld, a: string, b: string, pattern: string) {
  const [textA, textB] = await startedTexts(this, [a, b]) as [string, string];
  const matching = new RegExp(inline(this, pattern));
  const linesB = new Set(linesMatching(textB, matching));
  const shared = linesMatching(textA, matching).filter((line) => linesB.has(line));
  assert.deepEqual(shared, [], `both calls returned these lines:\n  ${show(textA)}\n  ${show(textB)}`);
});

Then("the started calls {string} and {string} returned the lines {string} between them, none twice", async function (this: ConformanceWorld, a: string, b: string, lines: string) {
  const texts = await startedTexts(this, [a, b]);
  const expected = inline(this, lines).split(" ");
  const returned = texts.flatMap((text) => text.split("\n")).filter((line) => expected.includes(line));
  assert.deepEqual([...returned].sort(), [...expected].sort(), `the calls returned:\n  ${texts.map(show).join("\n  ")}`);
});
