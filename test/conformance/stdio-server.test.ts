// The reference implementation over the stdio protocol, driven line by line: every line either side writes is
// also checked against conformance/protocol.schema.json.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validate } from "./helpers/json-schema-subset.js";
import { ProtocolPeer, type Answer } from "./helpers/protocol-peer.js";
import { createScenarioEnv, type ScenarioEnv } from "./helpers/scenario-env.js";

const SERVER = fileURLToPath(new URL("../../conformance/stdio-server.mjs", import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

let scenario: ScenarioEnv;
let peer: ProtocolPeer;

beforeEach(() => {
  scenario = createScenarioEnv();
  peer = new ProtocolPeer(process.execPath, [SERVER], { env: scenario.env, cwd: PACKAGE_ROOT });
});

afterEach(async () => {
  peer.child.stdin.end();
  const exit = await Promise.race([peer.exited, new Promise((resolve) => setTimeout(resolve, 10_000, "still running"))]);
  peer.killGroup();
  expect(exit).toEqual({ code: 0, signal: null });
  expect(await scenario.survivors()).toEqual([]);
  scenario.cleanup();
  for (const request of peer.sent) expect(validate(request, "request")).toEqual([]);
  for (const answer of peer.received) {
    expect(validate(answer, "response")).toEqual([]);
    const { id, result } = answer as { id: number; result?: unknown };
    if (result) expect(validate(result, `${peer.methods.get(id)}Result`)).toEqual([]);
  }
});

const start = () => peer.ask(1, "start", { config: { tools: { exec: {} } }, cwd: scenario.cwd });

describe("the stdio server", () => {
  it("answers start with its capabilities and runs `echo hi` in the scenario's cwd", async () => {
    expect(await start()).toEqual({ id: 1, result: { capabilities: ["pty", "executor", "bridge", "faults", "langchain", "watch", "dedupe"], reusable: true } });
    const answer = await peer.ask(2, "call", { tool: "exec", args: { command: "echo hi; pwd" }, scope: "main" });
    expect(answer.result).toMatchObject({ kind: "result", text: `hi\n${scenario.cwd}`, isError: false });
    expect(answer.result?.["details"]).toMatchObject({ status: "completed", exitCode: 0 });
  });

  it("answers overlapping calls as they finish, each with its request id", async () => {
    await start();
    peer.send(2, "call", { tool: "exec", args: { command: "sleep 1; echo slow" }, scope: "main" });
    peer.send(3, "call", { tool: "exec", args: { command: "echo fast" }, scope: "main" });
    peer.send(4, "liveSessionIds");
    const answers = [await peer.next(), await peer.next(), await peer.next()];
    expect(answers.map((answer) => answer.id).indexOf(2)).toBe(2);
    expect(answers.find((answer) => answer.id === 3)?.result).toMatchObject({ text: "fast" });
    expect(answers.find((answer) => answer.id === 2)?.result).toMatchObject({ text: "slow" });
  });

  it("aborts a waiting poll when abort names the poll's request id", async () => {
    await start();
    const exec = await peer.ask(2, "call", { tool: "exec", args: { command: "sleep 30", background: true }, scope: "main" });
    const sessionId = exec.result?.["details"] && (exec.result["details"] as { sessionId: string }).sessionId;
    peer.send(3, "call", { tool: "process", args: { action: "poll", sessionId, timeout: 20_000 }, scope: "main" });
    expect(await peer.ask(4, "liveSessionIds")).toEqual({ id: 4, result: { ids: [sessionId] } });
    const abortedAt = Date.now();
    peer.send(5, "abort", { callId: 3 });
    const answers = [await peer.next(), await peer.next()];
    expect(answers).toContainEqual({ id: 5, result: {} });
    expect(answers.find((answer) => answer.id === 3)?.result).toMatchObject({ kind: "error", name: "AbortError" });
    expect(Date.now() - abortedAt).toBeLessThan(10_000);
    expect(await peer.ask(6, "dispose")).toEqual({ id: 6, result: {} });
  });

  it("keeps serving after dispose, rejecting calls as disposed, and exits when its stdin ends", async () => {
    await start();
    await peer.ask(2, "call", { tool: "exec", args: { command: "sleep 30", background: true }, scope: "main" });
    expect(await peer.ask(3, "dispose")).toEqual({ id: 3, result: {} });
    expect(await peer.ask(4, "liveSessionIds")).toEqual({ id: 4, result: { ids: [] } });
    const late = await peer.ask(5, "call", { tool: "exec", args: { command: "echo hi" }, scope: "main" });
    expect(late.result).toMatchObject({ kind: "error", message: expect.stringContaining("disposed") });
    // afterEach closes stdin and expects exit code 0 and no survivor
  });

  it("sends a call's updates as progress lines while it runs, before its answer, and only when the call asks", async () => {
    await start();
    // The second line waits for a file written once the first update was read: without progress lines, no "two".
    const command = "echo one; until [ -e seen ]; do sleep 0.05; done; echo two";
    peer.send(2, "call", { tool: "exec", args: { command, yieldMs: 20_000 }, scope: "main", progress: true });
    const lines: Array<Answer & { progress?: unknown }> = [await peer.next()];
    expect(lines[0]).toMatchObject({ id: 2, progress: { text: "one\n", details: { status: "running", cwd: scenario.cwd } } });
    writeFileSync(join(scenario.cwd, "seen"), "");
    while (!("result" in lines.at(-1)!)) lines.push(await peer.next());
    const answer = lines.pop()!;
    expect(answer.result).toMatchObject({ kind: "result", text: "one\ntwo" });
    expect(lines.map((line) => line.progress)).toEqual(answer.result?.["updates"]);
    expect(lines.map((line) => line.id)).toEqual([2, 2]);
    const unasked = await peer.ask(3, "call", { tool: "exec", args: { command: "echo hi" }, scope: "main" });
    expect(unasked.result?.["updates"]).toHaveLength(1); // the next line was its answer: no progress line came first
  });

  it("answers requests it cannot serve with an error naming the problem", async () => {
    expect(await peer.ask(1, "liveSessionIds")).toEqual({ id: 1, error: { message: 'send "start" first' } });
    await peer.ask(2, "start", { config: {}, cwd: scenario.cwd });
    expect((await peer.ask(3, "frobnicate")).error?.message).toMatch(/^unknown method "frobnicate"; known: start, call/);
    expect(await peer.ask(4, "call", { tool: "bash", args: {}, scope: "main" }))
      .toEqual({ id: 4, error: { message: '"tool" must be "exec", "process" or "watch" (got "bash")' } });
    peer.sent.length = 0; // the invalid requests above are invalid on purpose
  });
});
