// Checks once per bwrap path that bubblewrap runs and can create its namespaces, so a failure is reported clearly.
import { spawn } from "node:child_process";
import { ExecProcessError } from "../../engine/index.js";

const PROBE_TIMEOUT_MS = 10_000;
const probes = new Map<string, Promise<void>>();

/** Resolves when `bwrap` can start a sandbox with the namespaces of bwrap-args.ts; rejects with an actionable text. */
export function ensureBwrapUsable(bwrapPath: string): Promise<void> {
  let probe = probes.get(bwrapPath);
  if (!probe) {
    probe = runProbe(bwrapPath);
    probes.set(bwrapPath, probe);
    // A failure is not cached: the administrator may install bubblewrap while the engine runs.
    probe.catch(() => probes.delete(bwrapPath));
  }
  return probe;
}

function runProbe(bwrapPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (reason: string): void => reject(new ExecProcessError({ code: "sandbox-unavailable", bwrapPath, reason }));
    const child = spawn(bwrapPath, [
      "--ro-bind", "/", "/", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
      "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--", "true",
    ], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    child.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(error.code === "ENOENT" ? "is not installed or not on PATH" : `could not be started (${error.code ?? "error"})`);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve();
      const said = firstLine(stderr);
      fail(`cannot create namespaces here${said ? ` (bwrap said: ${said})` : signal ? ` (ended by ${signal})` : ""}`);
    });
  });
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0]?.replace(/^bwrap:\s*/, "").slice(0, 200) ?? "";
}
