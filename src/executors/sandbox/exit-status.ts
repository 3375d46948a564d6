// Exact exit reports from inside the sandbox. bubblewrap turns a signal death of its command into exit code 128+N,
// so a small supervisor inside the sandbox (this Node binary, visible through the read-only root) runs the shell and
// writes how it ended to a file in a directory bound into the sandbox. It also marks when the shell has started.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where the status directory appears inside the sandbox (on its private /tmp). */
export const STATUS_DIR_INSIDE = "/tmp/.sandbox-exit";
const STATUS_FILE = "status.json";
const STARTED_FILE = "started";

// Ignores the terminating signals that reach the whole group, so it outlives the shell and records its end.
// NODE_OPTIONS is the command's, not the supervisor's: it is handed over as an argument and restored for the shell.
// The started file is written once the shell runs (spawn returns after its exec), with these handlers in place.
const SUPERVISOR = `
const [file, startedFile, nodeOptions, shell, ...args] = process.argv.slice(1);
const { spawn } = require("node:child_process");
const { writeFileSync } = require("node:fs");
for (const name of ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]) process.on(name, () => {});
const env = { ...process.env };
if (nodeOptions !== "") env.NODE_OPTIONS = nodeOptions.slice(1);
const child = spawn(shell, args, { stdio: "inherit", env });
child.on("error", () => process.exit(127));
if (child.pid !== undefined) try { writeFileSync(startedFile, ""); } catch {}
child.on("exit", (code, signal) => {
  try { writeFileSync(file, JSON.stringify({ code, signal })); } catch {}
  process.exit(code === null ? 128 : code);
});`;

export interface ExitRecorder {
  /** The host directory to bind at STATUS_DIR_INSIDE. */
  readonly hostDir: string;
  /** Command prefix inside the sandbox, before the shell and its arguments. */
  supervisorArgs(nodeOptions: string | undefined): string[];
  /** True once the supervisor runs the shell: from then on a signal sent inside reaches the command. */
  hasStarted(): boolean;
  /** How the shell ended, when the supervisor recorded it; removes the directory. */
  collect(): { code: number | null; signal: string | null } | undefined;
}

export function createExitRecorder(): ExitRecorder {
  const hostDir = mkdtempSync(join(tmpdir(), "sandbox-exit-"));
  return {
    hostDir,
    supervisorArgs: (nodeOptions) => [
      process.execPath, "-e", SUPERVISOR, join(STATUS_DIR_INSIDE, STATUS_FILE), join(STATUS_DIR_INSIDE, STARTED_FILE),
      nodeOptions === undefined ? "" : `=${nodeOptions}`,
    ],
    hasStarted: () => existsSync(join(hostDir, STARTED_FILE)),
    collect() {
      try {
        const raw = JSON.parse(readFileSync(join(hostDir, STATUS_FILE), "utf8")) as { code?: unknown; signal?: unknown };
        return {
          code: typeof raw.code === "number" ? raw.code : null,
          signal: typeof raw.signal === "string" ? raw.signal : null,
        };
      } catch {
        return undefined;
      } finally {
        rmSync(hostDir, { recursive: true, force: true });
      }
    },
  };
}
