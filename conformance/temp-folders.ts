// The kit's temporary folders (a run's report folder, a scenario's cwd and HOME, an implementation's HOME): each is
// removed when it is done with, and whatever is still there when the process ends goes with it, also when a
// signal ends the process (issue 35: a kit killed by SIGTERM left its report folder and its scenarios' folders).
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onExit } from "signal-exit";

const live = new Set<string>();
let exitHookInstalled = false;

/**
 * A new folder under the system's temporary folder (TMPDIR), named `<prefix>XXXXXX`, real path resolved. It is
 * removed at process end unless removeTempFolder removed it before.
 */
export function makeTempFolder(prefix: string): string {
  // signal-exit runs its hooks on process.exit, at the end of the event loop and on a signal that it then raises
  // again, so the process still dies by that signal.
  if (!exitHookInstalled) onExit(removeAll);
  exitHookInstalled = true;
  const folder = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  live.add(folder);
  return folder;
}

/** Removes a folder of makeTempFolder now, with everything in it. */
export function removeTempFolder(folder: string): void {
  live.delete(folder);
  rmSync(folder, { recursive: true, force: true });
}

function removeAll(): void {
  for (const folder of [...live]) {
    try {
      removeTempFolder(folder);
    } catch {
      // one folder that cannot go must not keep the others
    }
  }
}
