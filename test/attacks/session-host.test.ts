// The session host (issue 33) attacked as a hostile local user or client would: another user opening its socket,
// guessed tokens, a line of tens of megabytes before and after the greeting. Each test makes the attack, asserts the
// documented answer, and checks the host afterwards: it still serves its client, ran nothing, and its memory stayed
// bounded. Run by root in the unit tests, and again as a plain user (scripts/test-all.mjs).
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { connectSessionHost, type RemoteSessionEngine } from "../../src/host/index.js";
import { ExecProcessError } from "../../src/engine/index.js";
import { disposeEngines } from "../reliability/helpers.js";
import { rawConnection, startHost, stopAll, TOKEN } from "../host/helpers.js";

const isRoot = process.getuid?.() === 0;
/** The user root's attacker runs as: nobody. */
const OTHER_UID = 65534;
/** The host's memory may grow this much at most from one attack (its limits keep it to a few hundred KiB). */
const RSS_BOUND_BYTES = 48 * 1024 * 1024;

const remotes: RemoteSessionEngine[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.dispose()));
  await stopAll();
  await disposeEngines();
});

async function client(socketPath: string): Promise<RemoteSessionEngine> {
  const remote = await connectSessionHost({ socketPath, token: TOKEN });
  remotes.push(remote);
  return remote;
}

describe("the session host under attack", () => {
  it.skipIf(!isRoot)("another user cannot even open the host's socket (as root: the attacker runs as nobody)", async () => {
    const host = await startHost();
    const attempt = spawnSync("setpriv", [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, "--clear-groups", process.execPath, "-e", `
      const socket = require("node:net").connect(${JSON.stringify(host.socketPath)});
      socket.on("connect", () => { console.log("connected"); process.exit(0); });
      socket.on("error", (error) => { console.log(error.code); process.exit(0); });
    `], { encoding: "utf8" });
    expect(attempt.stdout.trim()).toBe("EACCES");
    expect(host.clientCount()).toBe(0);
  });

  it("refuses a hundred guessed tokens, each with the same text, and goes on serving its client", async () => {
    const host = await startHost();
    const good = await client(host.socketPath);
    const answers = new Set<string>();
    for (let guess = 0; guess < 100; guess += 1) {
      try {
        await connectSessionHost({ socketPath: host.socketPath, token: `${TOKEN.slice(0, -2)}${String(guess).padStart(2, "0")}` });
        answers.add("connected");
      } catch (error) {
        answers.add(ExecProcessError.is(error) ? error.code : String(error));
      }
    }
    expect([...answers]).toEqual(["session-host-refused"]);
    expect(host.engine.liveSessionIds()).toEqual([]);
    expect((await good.exec({ command: "echo served" }, { scopeKey: "s" })).content[0].text).toBe("served");
  });

  it("reads at most 64 KiB of a 32 MB line sent before the greeting, and its memory stays bounded", async () => {
    const host = await startHost();
    const good = await client(host.socketPath);
    const raw = await rawConnection(host.socketPath);
    const before = process.memoryUsage().rss;
    const chunk = `{"jsonrpc":"2.0","id":1,"method":"hello","params":{"token":"${"x".repeat(1024 * 1024)}`;
    for (let sent = 0; sent < 32; sent += 1) raw.sendLine(chunk);
    raw.sendLine("\"}}\n");
    expect(await raw.next()).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringContaining("limit of 65536 bytes") } });
    expect(process.memoryUsage().rss - before).toBeLessThan(RSS_BOUND_BYTES);
    expect((await good.exec({ command: "echo served" }, { scopeKey: "s" })).content[0].text).toBe("served");
  });

  it("refuses a 32 MB request of an authenticated client unread, and the connection and the host go on", async () => {
    const host = await startHost();
    const raw = await rawConnection(host.socketPath);
    raw.send({ jsonrpc: "2.0", id: 1, method: "hello", params: { token: TOKEN, protocolVersion: 1 } });
    expect((await raw.next())["result"]).toMatchObject({ name: "exec-process-host" });
    const before = process.memoryUsage().rss;
    const chunk = `{"jsonrpc":"2.0","id":2,"method":"exec","params":{"callId":1,"scopeKey":"s","params":{"command":"touch /tmp/never-${"y".repeat(1024 * 1024)}`;
    for (let sent = 0; sent < 32; sent += 1) raw.sendLine(chunk);
    raw.sendLine("\"}}}\n");
    expect(await raw.next()).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(process.memoryUsage().rss - before).toBeLessThan(RSS_BOUND_BYTES);
    raw.send({ jsonrpc: "2.0", id: 3, method: "liveSessionIds", params: {} });
    expect(await raw.next()).toMatchObject({ id: 3, result: [] });
  });
});
