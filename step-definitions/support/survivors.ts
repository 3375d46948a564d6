// Finds processes that carry the scenario's marker variable in their environment (Linux /proc), so that the
// check works for any implementation, in any language, without knowing its process groups.
import { readFile, readdir } from "node:fs/promises";

export interface Survivor { pid: number; command: string }

const SETTLE_MS = 3000;
const RETRY_MS = 100;

/** Processes whose environment holds CONFORMANCE_SCENARIO=<marker>, re-checked until none or SETTLE_MS passed. */
export async function findSurvivors(marker: string): Promise<Survivor[]> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const found = await scan(marker);
    if (found.length === 0 || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

export function killSurvivors(survivors: Survivor[]): void {
  for (const { pid } of survivors) {
    try { process.kill(pid, "SIGKILL"); } catch { /* already gone */ }
  }
}

async function scan(marker: string): Promise<Survivor[]> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return []; // not Linux: the check is documented as Linux-only (INTERPRETING.md)
  }
  const needle = `CONFORMANCE_SCENARIO=${marker}`;
  const found: Survivor[] = [];
  await Promise.all(entries.filter((name) => /^\d+$/.test(name)).map(async (name) => {
    const pid = Number(name);
    if (pid === process.pid) return;
    try {
      const environ = await readFile(`/proc/${name}/environ`, "latin1");
      if (!environ.split("\0").includes(needle)) return;
      const stat = await readFile(`/proc/${name}/stat`, "latin1");
      if (/\) Z /.test(stat)) return; // a zombie has exited; PID 1 may never reap it (TOOLCHAIN.md)
      const cmdline = (await readFile(`/proc/${name}/cmdline`, "latin1")).split("\0").join(" ").trim();
      found.push({ pid, command: cmdline });
    } catch {
      // the process ended while we looked, or is not ours to read
    }
  }));
  return found;
}
