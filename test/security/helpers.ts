// Helpers of the sandbox attack tests: what the host observes while and after a hostile command runs.
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, statfsSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { onCleanUp, scratchDir } from "../executors/helpers.js";

/** The real bubblewrap binary, or undefined when it is not installed. */
export const realBwrap: string | undefined = (() => {
  const found = spawnSync("sh", ["-c", "command -v bwrap"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
})();

/**
 * The worst timer delay a test accepts as "stalls nothing". A host that blocked on what a command planted (a FIFO
 * opened for reading, a flood read in one go) stalls for seconds or for ever; a vitest worker on a 2-core machine
 * running the whole suite is descheduled for up to about 200 ms (214 ms seen once), which is no stall of ours.
 */
export const STALL_BOUND_MS = 500;

/** Measures how late a 20 ms timer fires on the host; `stop` returns the worst delay seen, in ms. */
export function watchEventLoop(): { stop(): number } {
  const everyMs = 20;
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - everyMs);
    last = now;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(worst, performance.now() - last - everyMs);
    },
  };
}

/** A unix socket server on the host that counts the connections it accepts. */
export async function unixServer(path: string): Promise<{ connections(): number }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.end("hello from the host\n");
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  chmodSync(path, 0o777); // reachable by any uid: only the sandbox may stand in the way
  onCleanUp(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { connections: () => connections };
}

/**
 * A stand-in for bwrap that runs `action` (shell) just before the real bubblewrap starts a sandbox: after the
 * executor checked its paths, before bubblewrap mounts them. The availability probe passes straight through.
 */
export function bwrapThatFirst(action: string): string {
  const path = join(scratchDir("sec-bwrap-"), "bwrap");
  writeFileSync(path, `#!/bin/sh\ncase " $* " in *" --chdir "*) ${action} ;; esac\nexec ${realBwrap ?? "bwrap"} "$@"\n`, {
    mode: 0o755,
  });
  return path;
}

/** Bytes free for an unprivileged user on the filesystem of `path`. */
export function freeBytes(path: string): number {
  const stats = statfsSync(path);
  return stats.bavail * stats.bsize;
}

/** Entries of `dir` whose names start with `prefix`. */
export function entriesStartingWith(dir: string, prefix: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith(prefix));
}

/** The python3 of the system (not a user's shim, which another uid may not reach), when installed. */
export const systemPython: string | undefined = spawnSync("/usr/bin/python3", ["-c", "pass"]).status === 0 ? "/usr/bin/python3" : undefined;
