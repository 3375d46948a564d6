// mcp/in-turn.ts: one process serves stdio sessions one after another; the framing must keep each session's lines,
// output and end apart from the next one's.
import { PassThrough, type Readable, type Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { serveInTurn, type StdioSessionRunner } from "../../mcp/in-turn.js";

interface Served { argv: string[]; env: Record<string, string>; lines: string[] }

/** A fake session: echoes each line it reads as `<argv[0]>:<line>`, ends on end of input with the code argv[1]. */
function echoSessions(served: Served[], late: Array<() => void> = []): StdioSessionRunner {
  return (argv, env, input: Readable, output: Writable) => new Promise((resolve) => {
    const record: Served = { argv, env, lines: [] };
    served.push(record);
    let pending = "";
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        record.lines.push(line);
        output.write(`${argv[0]}:${line}\n`);
      }
    });
    input.once("end", () => {
      late.push(() => output.write(`${argv[0]}:after its end\n`));
      resolve(Number(argv[1] ?? 0));
    });
  });
}

function framing(runner: StdioSessionRunner): { send(...lines: string[]): void; end(): void; out: () => string[]; done: Promise<number> } {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const done = serveInTurn(runner, input, output);
  return {
    send: (...lines) => void input.write(lines.map((line) => `${line}\n`).join("")),
    end: () => void input.end(),
    out: () => text.split("\n").filter(Boolean),
    done,
  };
}

const start = (argv: string[], env: Record<string, string> = {}): string => JSON.stringify({ reuse: "start", argv, env });
const END = '{"reuse":"end"}';
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe("serveInTurn", () => {
  it("serves sessions one after another, each with its own command line, environment and lines", async () => {
    const served: Served[] = [];
    const late: Array<() => void> = [];
    const server = framing(echoSessions(served, late));
    server.send(start(["a"], { X: "1" }), "one", "two", END);
    await tick();
    server.send(start(["b", "3"], { X: "2" }), "three", END);
    await tick();
    for (const write of late) write(); // a session writing after its end reaches nobody
    server.end();
    expect(await server.done).toBe(0);
    expect(served).toEqual([{ argv: ["a"], env: { X: "1" }, lines: ["one", "two"] }, { argv: ["b", "3"], env: { X: "2" }, lines: ["three"] }]);
    expect(server.out()).toEqual(["a:one", "a:two", '{"reuse":"ended","code":0}', "b:three", '{"reuse":"ended","code":3}']);
  });

  it("says ended at once for a session that ends by itself, drops its lines up to its end line, then serves the next", async () => {
    const served: Served[] = [];
    const refusing: StdioSessionRunner = async (argv, env, input, output) => (argv[0] === "bad" ? 2 : echoSessions(served)(argv, env, input, output));
    const server = framing(refusing);
    server.send(start(["bad"]));
    await tick();
    server.send("lost", END, start(["good"]), "kept", END);
    server.end();
    expect(await server.done).toBe(0);
    expect(server.out()).toEqual(['{"reuse":"ended","code":2}', "good:kept", '{"reuse":"ended","code":0}']);
    expect(served.map((session) => session.lines)).toEqual([["kept"]]);
  });

  it("ends the session in progress when its input ends, and resolves once that session has ended", async () => {
    const served: Served[] = [];
    const server = framing(echoSessions(served));
    server.send(start(["a"]), "one");
    await tick();
    server.end();
    expect(await server.done).toBe(0);
    expect(server.out()).toEqual(["a:one", '{"reuse":"ended","code":0}']);
  });

  it("hands a session a line longer than the framing keeps in pieces, whole and in order", async () => {
    const served: Served[] = [];
    const server = framing(echoSessions(served));
    const long = "x".repeat(3 * (1 << 20) + 5);
    server.send(start(["a"]), long, "after", END);
    server.end();
    expect(await server.done).toBe(0);
    expect(served[0]?.lines.map((line) => line.length)).toEqual([long.length, 5]);
    expect(served[0]?.lines[0]).toBe(long);
  });

  it("ignores lines before a session starts", async () => {
    const served: Served[] = [];
    const server = framing(echoSessions(served));
    server.send('{"jsonrpc":"2.0","id":1,"method":"ping"}', END, start(["a"]), "one", END);
    server.end();
    expect(await server.done).toBe(0);
    expect(server.out()).toEqual(["a:one", '{"reuse":"ended","code":0}']);
  });
});

describe("exec-process-mcp --in-turn", () => {
  it("answers a session with a refused flag ended 2, and serves the next one as a server of its own", async () => {
    const { spawn } = await import("node:child_process");
    const launcher = new URL("../../scripts/mcp-bundle.cjs", import.meta.url).pathname;
    const child = spawn(process.execPath, [launcher, "--in-turn"], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const lines = (): string[] => out.split("\n").filter(Boolean);
    const until = async (count: number): Promise<void> => {
      for (let waited = 0; lines().length < count && waited < 20_000; waited += 20) await tick();
    };
    const send = (...sent: string[]): void => void child.stdin.write(sent.map((line) => `${line}\n`).join(""));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    send(start(["--no-such-flag"]), END);
    await until(1);
    send(start(["--cwd", "/", "--no-events-in-results"], { PATH: "/usr/bin:/bin", MARK: "second" }),
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "exec", arguments: { command: "echo $MARK; pwd" } } }));
    await until(3);
    send(END);
    await until(4);
    child.stdin.end();
    expect(await exited).toBe(0);
    const [refused, initialized, called, ended] = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(refused).toEqual({ reuse: "ended", code: 2 });
    expect(initialized).toMatchObject({ id: 1, result: { serverInfo: { name: "exec-process-mcp" } } });
    expect(called).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "second\n/" }] } });
    expect(ended).toEqual({ reuse: "ended", code: 0 });
  });
});
