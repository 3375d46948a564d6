// The exit status of a remote command whose status arrived in the same read as the channel's opening: ssh2 emits
// "exit" while parsing that read, before the executor listens, and then reports the status with "close".
import { EventEmitter } from "node:events";
import type { ClientChannel } from "ssh2";
import { describe, expect, it } from "vitest";
import { startRemoteProcess, type RemoteProcessOptions } from "../../src/executors/ssh/remote-process.js";

function fakeChannel(): ClientChannel & EventEmitter {
  const channel = Object.assign(new EventEmitter(), { stderr: new EventEmitter(), end: () => undefined, write: () => true });
  return channel as unknown as ClientChannel & EventEmitter;
}

const connection: RemoteProcessOptions["connection"] = { node: "build", closed: false, onClose: () => () => undefined };

function start(channel: ClientChannel) {
  return startRemoteProcess({
    connection, channel, pty: false, marker: "m", signalGroup: async () => undefined, onLost: () => undefined,
  });
}

function exitOf(remote: ReturnType<typeof startRemoteProcess>): Promise<[number | null, string | null]> {
  return new Promise((resolve) => remote.process.onExit((code, signal) => resolve([code, signal])));
}

describe("a remote command's end", () => {
  it("keeps the exit code that only the close event carries", async () => {
    const channel = fakeChannel();
    const remote = start(channel);
    const exit = exitOf(remote);
    channel.emit("end");
    channel.stderr.emit("end");
    channel.emit("close", 3);
    expect(await exit).toEqual([3, null]);
  });

  it("keeps the signal that only the close event carries", async () => {
    const channel = fakeChannel();
    const remote = start(channel);
    const exit = exitOf(remote);
    channel.emit("end");
    channel.stderr.emit("end");
    channel.emit("close", null, "SIGTERM");
    expect(await exit).toEqual([null, "SIGTERM"]);
  });

  it("prefers the exit event when both came", async () => {
    const channel = fakeChannel();
    const remote = start(channel);
    const exit = exitOf(remote);
    channel.emit("exit", 4);
    channel.emit("end");
    channel.stderr.emit("end");
    channel.emit("close", 4);
    expect(await exit).toEqual([4, null]);
  });
});
