// attachChildProcessBridge (KILL-17 … KILL-20), with a real child process and real signals to this process.
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { attachChildProcessBridge, DEFAULT_BRIDGE_SIGNALS } from "../../src/engine/index.js";

const fakeChild = (onKill: (signal: string) => void = () => {}) =>
  Object.assign(new EventEmitter(), { kill: (signal: NodeJS.Signals) => (onKill(signal), true) });

const detachers: Array<() => void> = [];
afterEach(() => detachers.splice(0).forEach((detach) => detach()));

/** Delivers a real signal to this process and waits until its listeners ran. */
async function receive(signal: NodeJS.Signals): Promise<void> {
  await new Promise<void>((resolve) => {
    process.once(signal, () => setImmediate(resolve));
    process.kill(process.pid, signal);
  });
}

describe("attachChildProcessBridge", () => {
  it("forwards SIGTERM received by the host to a real child, which then exits (KILL-17)", async () => {
    const child = spawn("sleep", ["30"]);
    const bridge = attachChildProcessBridge(child);
    detachers.push(bridge.detach);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    await receive("SIGTERM");
    expect(await exited).toBe("SIGTERM");
  });

  it("uses SIGTERM, SIGINT, SIGHUP and SIGQUIT by default and forwards each", async () => {
    expect([...DEFAULT_BRIDGE_SIGNALS]).toEqual(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]);
    const forwarded: string[] = [];
    detachers.push(attachChildProcessBridge(fakeChild((s) => forwarded.push(s)) as never).detach);
    for (const signal of DEFAULT_BRIDGE_SIGNALS) await receive(signal);
    expect(forwarded).toEqual(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]);
  });

  it.each(["exit", "error", "close"])("removes every listener when the child emits %s (KILL-18, KILL-19)", (event) => {
    const before = process.listenerCount("SIGTERM");
    const child = fakeChild();
    attachChildProcessBridge(child as never);
    expect(process.listenerCount("SIGTERM")).toBe(before + 1);
    child.emit(event, event === "error" ? new Error("boom") : 0);
    expect(process.listenerCount("SIGTERM")).toBe(before);
  });

  it("detach() removes the listeners, is idempotent, and stops forwarding (KILL-18)", async () => {
    const forwarded: string[] = [];
    const before = process.listenerCount("SIGINT");
    const bridge = attachChildProcessBridge(fakeChild((s) => forwarded.push(s)) as never);
    bridge.detach();
    bridge.detach();
    expect(process.listenerCount("SIGINT")).toBe(before);
    process.emit("SIGINT");
    expect(forwarded).toEqual([]);
  });

  it("replaces the signal set with options.signals and calls onSignal before forwarding (KILL-19)", async () => {
    const order: string[] = [];
    const hangupListeners = process.listenerCount("SIGHUP"); // others' (test files may share a process)
    const bridge = attachChildProcessBridge(fakeChild((s) => order.push(`kill ${s}`)) as never, {
      signals: ["SIGUSR2"], onSignal: (s) => order.push(`onSignal ${s}`),
    });
    detachers.push(bridge.detach);
    expect(process.listenerCount("SIGHUP")).toBe(hangupListeners);
    await receive("SIGUSR2");
    expect(order).toEqual(["onSignal SIGUSR2", "kill SIGUSR2"]);
  });

  it("ignores errors thrown by child.kill and keeps the host alive (KILL-19, KILL-20)", async () => {
    const child = Object.assign(new EventEmitter(), { kill: () => { throw new Error("ESRCH"); } });
    detachers.push(attachChildProcessBridge(child as never).detach);
    await receive("SIGTERM");
    expect(process.exitCode ?? 0).toBe(0);
  });
});
