// Row 5: 200 concurrent backgrounded sessions: start, poll each, kill all; every one ends and the descriptor and
// child counts return to their baseline. Baseline: 200 raw detached spawns killed by group and awaited.
import { spawn } from "node:child_process";
import {
  BENCH_SHELL, createBenchEngine, ctx, sessionIdOf, signalGroup, target, type RowOptions, type RowResult,
} from "./bench-kit.js";
import { childCount, fdCount, liveGroupMembers, readProcTable, waitUntil } from "./proc-stats.js";
import { summarize } from "./stats.js";
import { TARGETS } from "./targets.js";

const GOALS = TARGETS["sessions-200"];

const SESSIONS = 200;
const COMMAND = "sleep 60";

interface RoundResult {
  wallMs: number;
  startLatencies: number[];
  leftoverGroups: number;
}

async function engineRound(): Promise<RoundResult> {
  const engine = createBenchEngine();
  try {
    const started = performance.now();
    const startLatencies: number[] = [];
    const results = await Promise.all(Array.from({ length: SESSIONS }, async () => {
      const callStart = performance.now();
      const result = await engine.exec({ command: COMMAND, background: true }, ctx);
      startLatencies.push(performance.now() - callStart);
      return result;
    }));
    const ids = results.map(sessionIdOf);
    const pgids = results.map((result) => Number(result.details["pid"]));
    const polls = await Promise.all(ids.map((sessionId) => engine.process({ action: "poll", sessionId }, ctx)));
    if (polls.some((poll) => poll.details.status !== "running")) throw new Error("a session was not running");
    await Promise.all(ids.map((sessionId) => engine.process({ action: "kill", sessionId }, ctx)));
    const ended = await waitUntil(async () => (await engine.liveSessionIds()).length === 0, 30_000, 5);
    const wallMs = performance.now() - started;
    if (!ended) throw new Error(`${(await engine.liveSessionIds()).length} sessions still live 30 s after kill`);
    const table = readProcTable();
    const leftoverGroups = pgids.filter((pgid) => liveGroupMembers(pgid, table).length > 0).length;
    return { wallMs, startLatencies, leftoverGroups };
  } finally {
    await engine.dispose();
  }
}

async function rawRound(): Promise<number> {
  const started = performance.now();
  const children = Array.from({ length: SESSIONS }, () => spawn(BENCH_SHELL, ["-c", COMMAND], { detached: true }));
  const closed = children.map((child) => new Promise((resolve) => {
    child.stdout.on("data", () => {});
    child.stderr.on("data", () => {});
    child.once("close", resolve);
  }));
  for (const child of children) signalGroup(child, "SIGTERM");
  await Promise.all(closed);
  return performance.now() - started;
}

export async function benchConcurrentSessions(options: RowOptions): Promise<RowResult> {
  const rounds = options.quick ? 1 : 3;
  // Warm-up, then the baseline counts: node opens some descriptors lazily on its first spawn.
  await rawRound();
  await engineRound();
  await waitUntil(() => childCount() === 0, 5_000);
  const fdBefore = fdCount();
  const childrenBefore = childCount();
  const engineWall: number[] = [];
  const rawWall: number[] = [];
  const startLatencies: number[] = [];
  let leftoverGroups = 0;
  for (let i = 0; i < rounds; i++) {
    const round = await engineRound();
    engineWall.push(round.wallMs);
    startLatencies.push(...round.startLatencies);
    leftoverGroups += round.leftoverGroups;
    rawWall.push(await rawRound());
  }
  await waitUntil(() => fdCount() <= fdBefore && childCount() <= childrenBefore, 5_000);
  const fdAfter = fdCount();
  const childrenAfter = childCount();
  const engineSummary = summarize(engineWall);
  const rawSummary = summarize(rawWall);
  return {
    id: "sessions-200", title: `${SESSIONS} concurrent background sessions`, metric: "start + poll + kill all + all ended",
    unit: "ms", warmup: 1, engine: engineSummary, baseline: { label: `${SESSIONS} raw spawns, group kill, close`, ...rawSummary },
    ratio: engineSummary.median / rawSummary.median,
    targets: [
      target(GOALS.leftoverGroups, leftoverGroups),
      target(GOALS.fdGrowth, fdAfter - fdBefore),
      target(GOALS.childGrowth, childrenAfter - childrenBefore),
    ],
    extra: { rounds, fdBefore, fdAfter, childrenBefore, childrenAfter, execStartLatencyMs: summarize(startLatencies) },
    notes: ["All 200 exec calls are issued at once (Promise.all), as are the polls and the kills."],
  };
}
