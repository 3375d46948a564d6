// openChannel against a real sshd on 127.0.0.1 (started and stopped here): it opens a command's exec channel with or
// without a terminal, tells a channel the server refused (sshd MaxSessions) from a connection that closed, and strips
// ssh2's "(SSH) " prefix from the refusal. Skipped with the reason when sshd cannot run on this machine.
import type { ClientChannel } from "ssh2";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/engine/errors.js";
import * as messages from "../../src/engine/messages.js";
import { parseHostKeys } from "../../src/executors/ssh/host-key.js";
import { connectNode, type NodeConnection } from "../../src/executors/ssh/node-connection.js";
import { ChannelRefused, openChannel } from "../../src/executors/ssh/open-channel.js";
import { sshdUnavailableReason, startSshd, type SshdFixture } from "../../scripts/sshd-fixture.mjs";
import { cleanUp, onCleanUp, waitUntil } from "./helpers.js";

const unavailable = sshdUnavailableReason();
if (unavailable) console.warn(`openChannel tests skipped: ${unavailable}`);

/** sshd's MaxSessions here: a connection holds at most this many channels at once. */
const MAX_SESSIONS = 2;

let sshd: SshdFixture;
/** Set when sshd cannot give sessions a terminal here; only a plain user's sshd may lack them (root's must not). */
let terminalUnavailable: string | undefined;

describe.skipIf(unavailable !== undefined)("openChannel", () => {
  beforeAll(async () => {
    sshd = await startSshd({ maxSessions: MAX_SESSIONS });
    terminalUnavailable = process.getuid?.() === 0 ? undefined : sshd.terminalUnavailableReason();
    if (terminalUnavailable) console.warn(`openChannel tests with a terminal skipped: ${terminalUnavailable}`);
  });
  afterAll(async () => {
    await sshd?.stop();
  });
  afterEach(cleanUp);

  async function connect(): Promise<NodeConnection> {
    const connection = await connectNode(
      "build",
      { host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey },
      { keepaliveIntervalMs: 0, connectTimeoutMs: 10_000, hostKeys: parseHostKeys(sshd.hostKey) },
    );
    onCleanUp(() => connection.destroy());
    return connection;
  }

  it("opens an exec channel without a terminal: separate stdout and stderr, the exit code", async () => {
    const channel = await openChannel(await connect(), "printf out; printf err >&2; [ -t 0 ] || printf ' no-tty'; exit 3", undefined);
    expect(await outcomeOf(channel)).toEqual({ stdout: "out no-tty", stderr: "err", code: 3 });
  });

  it("opens an exec channel with a terminal of the requested name and size", async ({ skip }) => {
    if (terminalUnavailable) skip(terminalUnavailable);
    const pty = { term: "vt100", cols: 91, rows: 37 };
    const channel = await openChannel(await connect(), 'tty; printf "%s %s\\n" "$TERM" "$(stty size)"', pty);
    const { stdout, code } = await outcomeOf(channel);
    expect(stdout).toMatch(/^\/dev\/pts\/\d+\r\nvt100 37 91\r\n$/);
    expect(code).toBe(0);
  });

  it("refuses a channel beyond the server's MaxSessions as ChannelRefused, without ssh2's prefix, the connection still up", async () => {
    const connection = await connect();
    const held = await Promise.all(Array.from({ length: MAX_SESSIONS }, () => openChannel(connection, "exec cat", undefined)));
    const error = await openChannel(connection, "true", undefined).then(() => undefined, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(ChannelRefused);
    expect((error as Error).message).toBe("Channel open failure: open failed");
    expect(connection.closed).toBe(false);
    for (const channel of held) channel.end(); // cat ends at EOF
    await Promise.all(held.map(outcomeOf));
  });

  it.each<[string, (connection: NodeConnection) => Promise<ClientChannel>]>([
    ["has closed", async (connection) => {
      connection.destroy();
      expect(await waitUntil(() => connection.closed, 1_000)).toBe(true);
      return openChannel(connection, "true", undefined);
    }],
    ["closes while the channel opens", (connection) => {
      const opening = openChannel(connection, "true", undefined);
      connection.destroy();
      return opening;
    }],
  ])("says the connection closed, not that a channel was refused, when the connection %s", async (_, open) => {
    const error = await open(await connect()).then(() => undefined, (reason: unknown) => reason);
    expect(ExecProcessError.is(error, "node-connect-failed"), String(error)).toBe(true);
    expect((error as ExecProcessError).data).toEqual({
      code: "node-connect-failed", param: "node", node: "build", reason: "the connection closed",
    });
    expect((error as Error).message).toBe(messages.sshConnectFailed("build", "the connection closed"));
  });
});

/** What a channel printed and its exit code, once it closed. */
function outcomeOf(channel: ClientChannel): Promise<{ stdout: string; stderr: string; code: number | null }> {
  let stdout = "";
  let stderr = "";
  channel.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  channel.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve) => channel.once("close", (code: number | null) => resolve({ stdout, stderr, code })));
}
