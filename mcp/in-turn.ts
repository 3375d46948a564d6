// One server process that serves stdio MCP sessions one after another, each as a server started with its own command
// line and environment would: the conformance kit's MCP pass runs about 700 short sessions, and a process start costs
// each of them more CPU than the rest of its life (issue 36; `exec-process-mcp --in-turn`, which the kit's --reuse with
// --mcp starts: conformance/adapters/mcp-reuse.ts).
//
// The framing, one JSON text per line on stdin and stdout:
//   in:  {"reuse":"start","argv":[…],"env":{…}}  a session: the server's flags and its whole environment
//        …the session's MCP messages…
//        {"reuse":"end"}                          the client's goodbye, as closing stdin is for one server
//   out: …the session's MCP messages…
//        {"reuse":"ended","code":N}               once the session and every process it started have ended; N is
//                                                 the exit code its own server would have had
// A session that ends by itself (flags refused, a fatal transport error) says `ended` at once; the lines up to its
// `end` are dropped. The end of stdin ends the session in progress and then the process.
import { PassThrough, Writable, type Readable } from "node:stream";

/** Serves one stdio session on the given streams; resolves to its exit code once all of it has ended. */
export type StdioSessionRunner = (argv: string[], env: Record<string, string>, input: Readable, output: Writable) => Promise<number>;

/** The command line (alone) that makes exec-process-mcp serve sessions in turn. */
export const IN_TURN_FLAG = "--in-turn";

const START = '{"reuse":"start"';
const END = '{"reuse":"end"}';
const PIECE_CHARS = 1 << 20;

/** The session in progress: its input, whether it has ended, and whether its client said goodbye. */
interface Turn {
  input: PassThrough;
  ended: boolean;
  goodbye: boolean;
}

export function serveInTurn(runSession: StdioSessionRunner, input: Readable, output: Writable): Promise<number> {
  let turn: Turn | undefined;
  let pending = "";
  let inputEnded = false;
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const finishWhenIdle = (): void => {
    if (inputEnded && turn === undefined) finish(0);
  };
  const settle = (current: Turn): void => {
    if (current.ended && current.goodbye && turn === current) turn = undefined;
    finishWhenIdle();
  };

  const begin = (line: string): void => {
    const { argv, env } = JSON.parse(line) as { argv: string[]; env: Record<string, string> };
    const current: Turn = { input: new PassThrough(), ended: false, goodbye: false };
    turn = current;
    // The session's output reaches stdout until it has ended: nothing of it may fall into the next session's.
    const sessionOutput = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (current.ended) done();
        else output.write(chunk, () => done());
      },
    });
    void runSession(argv, env, current.input, sessionOutput).catch(() => 1).then((code) => {
      current.ended = true;
      output.write(`${JSON.stringify({ reuse: "ended", code })}\n`);
      settle(current);
    });
  };

  const onLine = (line: string): void => {
    if (turn === undefined) {
      if (line.startsWith(START)) begin(line);
      return; // nothing else is meant for a session that has not started
    }
    if (line === END) {
      turn.goodbye = true;
      turn.input.end();
      settle(turn);
    } else if (!turn.ended && !turn.goodbye) {
      turn.input.write(`${line}\n`);
    }
  };

  // A session's line longer than this goes on to it in pieces (its server refuses a line over its limit): the
  // framing never holds more than one piece.
  let continuing = false;
  input.setEncoding("utf8");
  input.on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (continuing) {
        if (turn && !turn.ended && !turn.goodbye) turn.input.write(`${line}\n`);
      } else {
        onLine(line);
      }
      continuing = false;
    }
    if (pending.length > PIECE_CHARS && turn !== undefined && !turn.ended && !turn.goodbye) {
      turn.input.write(pending);
      pending = "";
      continuing = true;
    }
  });
  input.once("end", () => {
    inputEnded = true;
    if (turn) {
      turn.goodbye = true;
      turn.input.end();
      settle(turn);
    }
    finishWhenIdle();
  });
  return finished;
}
