// src/langchain/create-exec-tools.ts: one call for an engine and a toolkit over it. What it returns (engine, toolkit,
// tools, middleware, dispose) and how it splits its options between the engine and the toolkit.
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { createAgent, fakeModel } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import type { ExecutorSpawnRequest, HostExecutor } from "../../src/engine/index.js";
import { createQueuedProcess } from "../../src/executors/executor-process.js";
import { createExecTools, ExecToolkit, type CreateExecToolsOptions, type ExecTools } from "../../src/index.js";
import { killAll, markerSeconds, processesWith, waitUntil } from "../executors/helpers.js";
import { call, cwd, detailsOf, sessionIdOf, setupToolkitTests, textOf, waitFor } from "./helpers.js";

setupToolkitTests();

const kits: ExecTools[] = [];
afterEach(async () => {
  await Promise.all(kits.splice(0).map((kit) => kit.dispose()));
});

/** createExecTools in this test's cwd with a plain shell; disposed after the test. */
function newKit(options: CreateExecToolsOptions = {}): ExecTools {
  const kit = createExecTools({ cwd, env: { ...process.env, SHELL: "/bin/sh" }, ...options });
  kits.push(kit);
  return kit;
}

describe("createExecTools", () => {
  it("returns an engine, a toolkit over that engine, the toolkit's tools exec and process, a middleware and dispose", () => {
    const kit = newKit();
    expect(Object.keys(kit).sort()).toEqual(["dispose", "engine", "middleware", "toolkit", "tools"]);
    expect(kit.toolkit).toBeInstanceOf(ExecToolkit);
    expect(kit.toolkit.engine).toBe(kit.engine);
    expect(kit.tools).toEqual([kit.toolkit.exec, kit.toolkit.process]);
    expect(kit.tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
    expect(kit.middleware.name).toBe("ExecExitEvents");
    expect(Reflect.get(kit.middleware, Symbol.for("AgentMiddleware"))).toBe(true);
  });

  it("gives a middleware that hands this toolkit's exit events to the model (LC-19)", async () => {
    const kit = newKit({ agentName: "builder" });
    const started = await call(kit.toolkit.exec, { command: "echo built", background: true });
    await waitFor(() => kit.engine.peekSystemEvents("agent:builder").length === 1);
    const model = fakeModel().respond(new AIMessage("noted"));
    const agent = createAgent({ model, tools: kit.tools, middleware: [kit.middleware] });
    await agent.invoke({ messages: [new HumanMessage("news?")] });
    expect(model.calls[0]?.messages.map((message) => message.content)).toEqual([
      "news?", `System: Exec completed (${sessionIdOf(started).slice(0, 8)}, code 0) :: built`,
    ]);
    expect(kit.engine.peekSystemEvents("agent:builder")).toEqual([]);
  });

  it("ends every live session on dispose (KILL-14), and the engine with them", async () => {
    const marker = markerSeconds();
    const kit = newKit();
    const started = await call(kit.toolkit.exec, { command: `sleep ${marker}`, background: true });
    expect(kit.engine.liveSessionIds()).toEqual([sessionIdOf(started)]);
    expect(await waitUntil(() => processesWith(marker).length > 0, 10_000)).toBe(true);
    await kit.dispose();
    expect(kit.engine.disposed).toBe(true);
    expect(kit.engine.liveSessionIds()).toEqual([]);
    const gone = await waitUntil(() => processesWith(marker).length === 0, 10_000);
    const left = processesWith(marker);
    killAll(left);
    expect(gone, JSON.stringify(left)).toBe(true);
  });

  it.each<[string, CreateExecToolsOptions, string, string[], boolean]>([
    ["no toolkit option", {}, "default", ["exec", "process"], false],
    ["agentName", { agentName: "builder" }, "agent:builder", ["exec", "process"], false],
    ["scopeKey over agentName", { scopeKey: "shared", agentName: "builder" }, "shared", ["exec", "process"], false],
    ["processTool: false", { processTool: false }, "default", ["exec"], false],
    ["scopeFromThread", { scopeFromThread: true }, "default", ["exec", "process"], true],
  ])("passes %s to the toolkit", (_title, options, scopeKey, toolNames, scopeFromThread) => {
    const kit = newKit(options);
    expect(kit.toolkit.scopeKey).toBe(scopeKey);
    expect(kit.tools.map((tool) => tool.name)).toEqual(toolNames);
    expect(kit.toolkit.scopeFromThread).toBe(scopeFromThread);
  });

  it("passes allowElevated to the toolkit (LC-05)", async () => {
    await expect(newKit().toolkit.exec.invoke({ command: "echo up", elevated: true }))
      .rejects.toThrow(/^elevated is not available right now \(runtime=direct\)\./);
    expect(textOf(await call(newKit({ allowElevated: true }).toolkit.exec, { command: "echo up", elevated: true }))).toBe("up");
  });

  it("passes cwd and env to the engine", async () => {
    const kit = newKit({ env: { PATH: process.env["PATH"], SHELL: "/bin/sh", GREETING: "hello" } });
    expect(textOf(await call(kit.toolkit.exec, { command: 'pwd; echo "$GREETING"' }))).toBe(`${cwd}\nhello`);
  });

  it("passes executors to the engine: host sandbox runs on the given executor", async () => {
    const requests: ExecutorSpawnRequest[] = [];
    const executor: HostExecutor = {
      spawn(request) {
        requests.push(request);
        const { process, events } = createQueuedProcess();
        events.output("stdout", "from the stand-in\n");
        events.exit(0, null);
        return Promise.resolve(process);
      },
    };
    const kit = newKit({ executors: { sandbox: executor } });
    const result = await call(kit.toolkit.exec, { command: "echo local", host: "sandbox" });
    expect(textOf(result)).toBe("from the stand-in");
    expect(detailsOf(result)).toMatchObject({ status: "completed", exitCode: 0 });
    expect(requests.map((request) => [request.command, request.cwd])).toEqual([["echo local", cwd]]);
  });

  it("with no options, scopes to default and runs in the process's cwd", async () => {
    const kit = createExecTools();
    kits.push(kit);
    expect(kit.toolkit.scopeKey).toBe("default");
    expect(kit.tools.map((tool) => tool.name)).toEqual(["exec", "process"]);
    expect(textOf(await call(kit.toolkit.exec, { command: "pwd" }))).toBe(process.cwd());
  });
});
