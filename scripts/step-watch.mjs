// What npm test does about a step that does not end (issue 36): CI once waited out its 90 minutes on a step that
// never ended, its record showing nothing after the unit tests. A step still running at its deadline, or one that
// exited while processes it started still hold its output, is named with those processes (their state: `T` is a
// stopped process, such as a container engine a test paused) and they are ended, so that the run still ends with its
// totals. Linux only (/proc), as the run's executors are.
import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The longest a command line is shown. */
const COMMAND_MAX = 200;
/** How long an exited step's output may stay open (its last writes in flight) before its holders are ended. */
const OUTPUT_GRACE_MS = 30_000;
/** How long a step past its deadline has after SIGTERM to stop what it started, before SIGKILL. */
const END_GRACE_MS = 15_000;

/**
 * Runs a step of npm test: `command` with its output to `outputFile`, or else piped to `onOutput` (stdout and
 * stderr chunks, with the stream they came from). Resolves with its exit status and, when it did not end by itself,
 * `problem`: what was found and ended (above).
 * - `deadlineMs`: past it, the step and its processes are named and ended.
 * - `priority`: its nice value, where the user may set it (root).
 */
export function runStep(command, args, { outputFile, onOutput, priority, deadlineMs, outputGraceMs = OUTPUT_GRACE_MS }) {
  return new Promise((resolveStep) => {
    const file = outputFile === undefined ? undefined : openSync(outputFile, "w");
    const child = spawn(command, args, { stdio: file === undefined ? ["inherit", "pipe", "pipe"] : ["ignore", file, file] });
    if (priority !== undefined) {
      try { setPriority(child.pid, priority); } catch { /* not root: the usual priority */ }
    }
    // What its stdout and stderr are (Node's pipes are socket pairs, whose two ends differ), read at once from the
    // step itself, to find who still holds them after it exits. A step that exited before this read is not watched so.
    const outputs = file === undefined ? fdTargets(child.pid, [1, 2]) : [];
    let problem;
    let graceTimer;
    /** The ending of a step past its deadline: it resolves once every process of the step has been signalled. */
    let ending = Promise.resolve();
    const settle = (status) => void ending.then(() => resolveStep({ status, problem }));
    const deadline = setTimeout(() => {
      const tree = [child.pid, ...descendants(child.pid)];
      problem = `still running after ${deadlineMs / 1000} s, ended with its processes:\n${describeProcesses(tree).join("\n")}`;
      ending = endStep(child.pid, tree, END_GRACE_MS);
    }, deadlineMs);
    child.once("exit", (status) => {
      clearTimeout(deadline);
      if (file !== undefined) {
        closeSync(file);
        settle(status);
        return;
      }
      graceTimer = setTimeout(() => {
        const holders = holdersOf(outputs);
        const named = describeProcesses(holders);
        problem ??= `exited, but processes it started still held its output after ${outputGraceMs / 1000} s, ended:\n`
          + (named.length > 0 ? named.join("\n") : "(none found: the step exited before its output could be read)");
        signalAll(holders, "SIGKILL");
        child.stdout.destroy();
        child.stderr.destroy();
      }, outputGraceMs);
    });
    if (file === undefined) {
      child.stdout.on("data", (chunk) => onOutput?.(chunk, "stdout"));
      child.stderr.on("data", (chunk) => onOutput?.(chunk, "stderr"));
      child.once("close", (status) => {
        clearTimeout(graceTimer);
        settle(status);
      });
    }
  });
}

function pids() {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);
}

/** A process's parent and state from /proc/<pid>/stat, or undefined once it is gone. */
function stat(pid) {
  let text;
  try { text = readFileSync(`/proc/${pid}/stat`, "utf8"); } catch { return undefined; }
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so the fields after it follow its last `)`.
  const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state, ppid: Number(ppid) };
}

/** Every process below the `roots` by parent links, parents before their children. */
function descendants(...roots) {
  const children = new Map();
  for (const pid of pids()) {
    const parent = stat(pid)?.ppid;
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found = [];
  const queue = [...roots];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** What each of `fds` (`/proc/<pid>/fd/<n>` links, such as `socket:[123]`) of process `pid` is. */
function fdTargets(pid, fds) {
  return fds.flatMap((fd) => {
    try { return [readlinkSync(`/proc/${pid}/fd/${fd}`)]; } catch { return []; }
  });
}

/** Processes other than this one with an open file descriptor on any of `targets` (from fdTargets). */
function holdersOf(targets) {
  const wanted = new Set(targets);
  return pids().filter((pid) => pid !== process.pid && openFds(pid).some((fd) => {
    try { return wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`)); } catch { return false; }
  }));
}

function openFds(pid) {
  try { return readdirSync(`/proc/${pid}/fd`); } catch { return []; }
}

/** A line per process still there: `pid state command line`. */
function describeProcesses(list) {
  return list.flatMap((pid) => {
    const state = stat(pid)?.state;
    if (state === undefined) return [];
    let command;
    // One line each: arguments may hold newlines.
    try { command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/[\0\s]+/g, " ").trim(); } catch { return []; }
    const shown = command.length > COMMAND_MAX ? `${command.slice(0, COMMAND_MAX)}…` : command;
    return [`${pid} ${state} ${shown}`];
  });
}

/**
 * Ends a step: every process of `list` is continued (a stopped engine cannot run its shutdown), then `top` (the
 * step's own process) gets SIGTERM, so that a fixture's wrapper may stop what it started, and once `top` has ended,
 * or after `graceMs`, every process of `list` still there gets SIGKILL, with the processes below them.
 */
async function endStep(top, list, graceMs) {
  signalAll(list, "SIGCONT");
  signalAll([top], "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && stat(top) !== undefined && stat(top).state !== "Z") {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // With what they started meanwhile: a continued process may have gone on to start another.
  signalAll([...new Set([...list, ...descendants(...list)])], "SIGKILL");
}

function signalAll(list, signal) {
  for (const pid of list) {
    try { process.kill(pid, signal); } catch { /* gone */ }
  }
}
