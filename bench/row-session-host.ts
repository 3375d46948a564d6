// Rows of the session host (issue 33), each against a host in another process (bin/exec-process-host.mjs) on a unix
// socket:
//   host-exec-true     a foreground exec of `true` through the host, against the in-process engine (interleaved);
//   host-poll-wakeup   a waiting poll through the host returning after the command's output (as row poll-wakeup);
//   host-sessions-200  200 background sessions started by 4 clients at once: none lost, none left after the
//                      host's shutdown.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectSessionHost, type RemoteSessionEngine } from "../src/host/index.js";
import {
  BENCH_SHELL, createBenchEngine, ctx, target, textOf, type RowOptions, type RowResult,
} from "./bench-kit.js";
import { liveGroupMembers, readProcTable, waitUntil } from "./proc-stats.js";
import { pollWakeup } from "./row-poll-wakeup.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";

const BIN = fileURLToPath(new URL("../bin/exec-process-host.mjs", import.meta.url));
const TOKEN = "bench-token-0123456789abcdef";

interface HostProcess {
  child: ChildProcess;
  socketPath: string;
  stop(): Promise<void>;
}

async function startHost(): Promise<HostProcess> {
  const cwd = mkdtempSync(join(tmpdir(), "bench-host-"));
  const child = spawn(process.execPath, [BIN, "--cwd", cwd], {
    env: { ...process.env, SHELL: BENCH_SHELL, TERM: "dumb", EXEC_PROCESS_HOST_TOKEN: TOKEN }, stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    void exited.then(() => reject(new Error("exec-process-host exited before it listened")));
  });
  const { socketPath } = JSON.parse(line) as { socketPath: string };
  return {
    child, socketPath,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

async function withHost<T>(run: (host: HostProcess, remote: RemoteSessionEngine) => Promise<T>): Promise<T> {
  const host = await startHost();
  const remote = await connectSessionHost({ socketPath: host.socketPath, token: TOKEN });
  try {
    return await run(host, remote);
  } finally {
    await remote.dispose();
    await host.stop();
  }
}

export async function benchHostExecLatency(options: RowOptions): Promise<RowResult> {
  const pairs = options.quick ? 30 : 150;
  const warmup = 20;
  const local = createBenchEngine();
  try {
    return await withHost(async (_host, remote) => {
      const time = async (engine: typeof local | RemoteSessionEngine): Promise<number> => {
        const started = performance.now();
        const result = await engine.exec({ command: "true" }, ctx);
        const elapsed = performance.now() - started;
        if (result.details.status !== "completed") throw new Error(`exec true failed: ${textOf(result)}`);
        return elapsed;
      };
      for (let i = 0; i < warmup; i++) {
        await time(local);
        await time(remote);
      }
      const remoteSamples: number[] = [];
      const localSamples: number[] = [];
      for (let i = 0; i < pairs; i++) {
        if (i % 2 === 0) {
          remoteSamples.push(await time(remote));
          localSamples.push(await time(local));
        } else {
          localSamples.push(await time(local));
          remoteSamples.push(await time(remote));
        }
      }
      const remoteSummary = summarize(remoteSamples);
      const localSummary = summarize(localSamples);
      const ratio = remoteSummary.median / localSummary.median;
      return {
        id: "host-exec-true", title: "foreground exec `true` through a session host", metric: "per-call latency", unit: "ms", warmup,
        engine: remoteSummary, baseline: { label: "the in-process engine", ...localSummary }, ratio,
        targets: [target(TARGETS["host-exec-true"].ratio, ratio)],
        extra: { pairs, transport: "unix socket, host in another process" },
        notes: ["The host runs its commands as the in-process engine does; the difference is the round trip and its JSON."],
      };
    });
  } finally {
    await local.dispose();
  }
}

export async function benchHostPollWakeup(options: RowOptions): Promise<RowResult> {
  const samples = options.quick ? 15 : 40;
  const warmup = 5;
  return withHost(async (_host, remote) => {
    const wakeup = (): Promise<number> => pollWakeup(remote);
    for (let i = 0; i < warmup; i++) await wakeup();
    const measured: number[] = [];
    for (let i = 0; i < samples; i++) measured.push(await wakeup());
    const summary = summarize(measured);
    return {
      id: "host-poll-wakeup", title: "poll wake-up on output through a session host", metric: "write → poll return", unit: "ms", warmup,
      engine: summary, baseline: null, ratio: null,
      targets: [target(TARGETS["host-poll-wakeup"].median, summary.median)],
      extra: {}, notes: ["As row poll-wakeup, with the poll sent to a host in another process."],
    };
  });
}

const CLIENTS = 4;
const PER_CLIENT = 50;

export async function benchHostSessions(): Promise<RowResult> {
  const host = await startHost();
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connectSessionHost({ socketPath: host.socketPath, token: TOKEN })));
  const started = performance.now();
  const latencies: number[] = [];
  let groups: number[] = [];
  let lost = CLIENTS * PER_CLIENT;
  try {
    const results = await Promise.all(clients.flatMap((client, index) => Array.from({ length: PER_CLIENT }, async () => {
      const callStart = performance.now();
      const result = await client.exec({ command: "sleep 60", background: true }, { scopeKey: `client-${index}` });
      latencies.push(performance.now() - callStart);
      return result;
    })));
    groups = results.map((result) => Number(result.details["pid"]));
    const listed = await Promise.all(clients.map(async (client, index) => {
      const list = await client.process({ action: "list" }, { scopeKey: `client-${index}` });
      return (list.details as { sessions: Array<{ status: string }> }).sessions.filter((session) => session.status === "running").length;
    }));
    lost = CLIENTS * PER_CLIENT - listed.reduce((sum, count) => sum + count, 0);
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
    await host.stop();
  }
  const wallMs = performance.now() - started;
  await waitUntil(() => groups.every((pgid) => liveGroupMembers(pgid, readProcTable()).length === 0), 10_000);
  const table = readProcTable();
  const left = groups.filter((pgid) => liveGroupMembers(pgid, table).length > 0).length;
  const goals = TARGETS["host-sessions-200"];
  return {
    id: "host-sessions-200", title: `${CLIENTS * PER_CLIENT} background sessions from ${CLIENTS} clients of a session host`,
    metric: "start latency per session", unit: "ms", warmup: 0,
    engine: summarize(latencies), baseline: null, ratio: null,
    targets: [target(goals.lost, lost), target(goals.leftAfterShutdown, left)],
    extra: { wallMs, lost, leftAfterShutdown: left },
    notes: ["Each client starts 50 sessions at once in a scope of its own; the host's SIGTERM ends them all."],
  };
}
