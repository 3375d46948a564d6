// The reference through a session host (issue 33): every scenario's engine lives in a host in another process
// (session-host-factory.ts, one per kit worker), and the LangChain tools reach it through connectSessionHost, as a
// deployment's workers do. Fake executors (@executor) and the child-process bridge (@bridge) are test doubles and a
// helper of the adapter's own process, not calls of the engine: this adapter leaves those capabilities out.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { AdapterInstance, Capability, ConformanceAdapter, ExecutorRequest, StartOptions, WakeRequest } from "../adapter.js";
import { connectSessionHost } from "../../src/host/index.js";
import { referenceInstance } from "./reference.js";

export default function createSessionHostAdapter(): ConformanceAdapter {
  const capabilities: Capability[] = [...(ptyLoads() ? ["pty" as const] : []), "faults", "langchain"];
  return { name: "langchain-exec-process (reference, through a session host)", capabilities, start: startThroughSessionHost };
}

function ptyLoads(): boolean {
  try {
    createRequire(import.meta.url)("node-pty");
    return true;
  } catch {
    return false;
  }
}

/** The worker's factory process: its token, and its answers by request id. */
interface Factory {
  token: string;
  request(message: { start: StartOptions } | { stop: string }): Promise<{ socketPath?: string; error?: string }>;
}

let factory: Promise<Factory> | undefined;

function startFactory(): Promise<Factory> {
  const source = import.meta.url.endsWith(".ts");
  const script = fileURLToPath(new URL(`./session-host-factory.${source ? "ts" : "js"}`, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [...(source ? ["--import", "tsx"] : []), script], { stdio: ["pipe", "pipe", "inherit"] });
  // The factory must not keep the kit's worker alive: the end of the worker closes its stdin, which closes the hosts.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  const waiting = new Map<number, (answer: { socketPath?: string; error?: string }) => void>();
  let nextId = 1;
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    child.once("exit", (code) => reject(new Error(`the session host factory exited (${code})`)));
    lines.on("line", (line) => {
      const message = JSON.parse(line) as { id?: number; token?: string; socketPath?: string; error?: string };
      if (message.token !== undefined) {
        resolve({
          token: message.token,
          request: (request) => new Promise((answered) => {
            const id = nextId++;
            waiting.set(id, answered);
            child.stdin!.write(`${JSON.stringify({ id, ...request })}\n`);
          }),
        });
        return;
      }
      const answered = waiting.get(message.id!);
      waiting.delete(message.id!);
      answered?.(message);
    });
  });
}

async function startThroughSessionHost(options: StartOptions): Promise<AdapterInstance> {
  const { token, request } = await (factory ??= startFactory());
  const { socketPath, error } = await request({ start: options });
  if (!socketPath) throw new Error(`the session host did not start: ${error ?? "no answer"}`);
  const engine = await connectSessionHost({ socketPath, token });
  const wakes: WakeRequest[] = [];
  const requests: ExecutorRequest[] = [];
  engine.addWakeListener({ onWake: (wake) => void wakes.push(wake) });
  const instance = referenceInstance(engine, { wakes, requests });
  return {
    ...instance,
    // "The implementation is disposed": the host's shutdown, which ends the scenario's sessions and settles the
    // calls in flight (KILL-14 … KILL-16); then the client detaches.
    async dispose() {
      await request({ stop: socketPath });
      await instance.dispose();
    },
  };
}
