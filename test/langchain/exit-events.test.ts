// Delivering queued exit events to an agent (src/langchain/exit-events.ts): the createAgent middleware (LC-19), and
// nothing written into the conversation by itself (LC-23).
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, fakeModel } from "langchain";
import { describe, expect, it } from "vitest";
import { call, newToolkit, sessionIdOf, setupToolkitTests, sleep, textOf, thread, waitFor, waitUntilExited } from "./helpers.js";

setupToolkitTests();

describe("exit events (LC-19, LC-23)", () => {
  it("LC-19: with an empty queue the middleware changes nothing in what the model sees", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const model = fakeModel().respond(new AIMessage("hello"));
    const agent = createAgent({ model, tools: toolkit.getTools(), middleware: [toolkit.createMiddleware()] });
    const { messages } = await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(model.calls[0]?.messages.map((m) => m.content)).toEqual(["hi"]);
    expect(messages.map((m) => m.content)).toEqual(["hi", "hello"]);
  });

  it("LC-19: the middleware appends the queued exit event as the last message before the next model call", async () => {
    const { toolkit, model, agent, first, id } = await startBuild();
    await waitFor(() => toolkit.engine.peekSystemEvents("agent:builder").length === 1);
    // The second model call happened before the exit: it saw no System line.
    expect(model.calls[1]?.messages.some((m) => String(m.content).startsWith("System:"))).toBe(false);
    const second = await agent.invoke({ messages: [...first.messages, new HumanMessage("news?")] });
    const seen = model.calls[2]?.messages ?? [];
    expect(seen.at(-2)?.content).toBe("news?");
    expect(seen.at(-1)).toBeInstanceOf(HumanMessage);
    expect(seen.at(-1)?.content).toBe(`System: Exec completed (${id.slice(0, 8)}, code 0) :: built ok`);
    expect(second.messages.at(-1)?.content).toBe("noted");
    expect(toolkit.engine.peekSystemEvents("agent:builder")).toEqual([]);
  });

  it("NOTIFY-07: the message's text names the session by 8 characters, its systemEvents by the full id (issue 37)", async () => {
    const { toolkit, model, agent, first, id } = await startBuild();
    expect(id.length).toBeGreaterThan(8); // "briny-river", never clipped to "briny-ri" in the structured fields
    await waitFor(() => toolkit.engine.peekSystemEvents("agent:builder").length === 1);
    await agent.invoke({ messages: [...first.messages, new HumanMessage("news?")] });
    const delivered = model.calls[2]?.messages.at(-1);
    expect(delivered?.content).toBe(`System: Exec completed (${id.slice(0, 8)}, code 0) :: built ok`);
    expect(delivered?.additional_kwargs["systemEvents"]).toEqual([{
      scopeKey: "agent:builder", sessionId: id, text: `Exec completed (${id.slice(0, 8)}, code 0) :: built ok`,
      contextKey: `exec:${id}`, createdAt: expect.any(Number) as number,
    }]);
  });

  it("NOTIFY-07: the exit-event node and drainEventMessages carry the full session id too", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const id = sessionIdOf(await call(toolkit.exec, { command: "echo done", background: true }));
    await waitFor(() => toolkit.engine.peekSystemEvents("agent:builder").length === 1);
    const { messages } = await toolkit.createExitEventNode()();
    expect(messages?.map((message) => (message.additional_kwargs["systemEvents"] as Array<{ sessionId: string }>)[0]?.sessionId)).toEqual([id]);
  });

  it("LC-19, LC-04: with scopeFromThread the middleware delivers the events of the run's thread only", async () => {
    const toolkit = newToolkit({ agentName: "builder", scopeFromThread: true });
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "echo thread job", background: true } }])
      .respond(new AIMessage("started"))
      .respond(new AIMessage("other thread"))
      .respond(new AIMessage("noted"));
    const agent = createAgent({ model, tools: toolkit.getTools(), middleware: [toolkit.createMiddleware()], checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [new HumanMessage("build")] }, thread("a"));
    await waitFor(() => toolkit.engine.peekSystemEvents("thread:a").length === 1);
    await agent.invoke({ messages: [new HumanMessage("hello from b")] }, thread("b"));
    expect(model.calls[2]?.messages.map((m) => m.content)).toEqual(["hello from b"]);
    await agent.invoke({ messages: [new HumanMessage("news?")] }, thread("a"));
    expect(String(model.calls[3]?.messages.at(-1)?.content)).toMatch(/^System: Exec completed \([a-z0-9-]{1,8}, code 0\) :: thread job$/);
  });

  it("LC-23: a finished background session writes nothing into the conversation until poll, log or a drain delivers it", async () => {
    const toolkit = newToolkit({ agentName: "builder" });
    const model = fakeModel()
      .respondWithTools([{ name: "exec", args: { command: "sleep 0.1; echo secret-output", background: true } }])
      .respond(new AIMessage("started"));
    const agent = createAgent({ model, tools: toolkit.getTools(), checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [new HumanMessage("build")] }, thread("h"));
    const before = ((await agent.graph.getState({ configurable: { thread_id: "h" } })).values as { messages: BaseMessage[] }).messages;
    const id = sessionIdOf(before.find((m): m is ToolMessage => m instanceof ToolMessage)!);
    await waitUntilExited(toolkit.engine, id);
    await sleep(100);
    const after = ((await agent.graph.getState({ configurable: { thread_id: "h" } })).values as { messages: BaseMessage[] }).messages;
    expect(after.map((m) => m.content)).toEqual(before.map((m) => m.content));
    expect(after.some((m) => String(m.content).includes("secret-output"))).toBe(false);
    // The event waits in the queue; only a drain or a poll hands the output over.
    expect(toolkit.engine.peekSystemEvents("agent:builder")).toHaveLength(1);
    expect(textOf(await call(toolkit.process, { action: "poll", sessionId: id }))).toBe("secret-output\n\nProcess exited with code 0.");
  });
});

/** An agent of agent "builder" whose first run started `echo built ok` in the background; the next answer is "noted". */
async function startBuild() {
  const toolkit = newToolkit({ agentName: "builder" });
  const model = fakeModel()
    .respondWithTools([{ name: "exec", args: { command: "echo built ok", background: true } }])
    .respond(new AIMessage("started"))
    .respond(new AIMessage("noted"));
  const agent = createAgent({ model, tools: toolkit.getTools(), middleware: [toolkit.createMiddleware()] });
  const first = await agent.invoke({ messages: [new HumanMessage("build")] });
  const id = sessionIdOf(first.messages.find((m): m is ToolMessage => m instanceof ToolMessage)!);
  return { toolkit, model, agent, first, id };
}
