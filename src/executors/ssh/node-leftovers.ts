// What a node may still hold after a connection was lost (issue 20): the process groups of commands that were
// running on it (orphans) and environment files no command read. Cleared over the control channel as soon as the
// node is reached again; whatever cannot be reached yet is kept for the next time.
import { orphanKillLine, removeFileLine } from "./remote-command.js";

interface Orphan { pid: number; startTime: string | undefined }

export class NodeLeftovers {
  private readonly orphans = new Map<number, Orphan>();
  private readonly envFiles = new Set<string>();

  /** `runControl` runs a line over the node's control channel and rejects when the node cannot be reached. */
  constructor(private readonly runControl: (line: string) => Promise<number>) {}

  get empty(): boolean {
    return this.orphans.size === 0 && this.envFiles.size === 0;
  }

  /** A command whose connection was lost: its group is killed at the next clear (pid undefined: nothing to do). */
  addOrphan(pid: number | undefined, startTime: string | undefined): void {
    if (pid !== undefined) this.orphans.set(pid, { pid, startTime });
  }

  /** Removes the environment file of a command that did not start, now or at a later clear. */
  async removeEnvFile(path: string): Promise<void> {
    try {
      await this.runControl(removeFileLine(path));
      this.envFiles.delete(path);
    } catch {
      this.envFiles.add(path);
    }
  }

  /** Kills every orphan (SIGKILL, sparing a reused pid) and removes every left file; resolves when the node ran them. */
  async clear(): Promise<void> {
    const kills = [...this.orphans.values()].map(async (orphan) => {
      try {
        await this.runControl(orphanKillLine(orphan.pid, orphan.startTime));
        if (this.orphans.get(orphan.pid) === orphan) this.orphans.delete(orphan.pid);
      } catch {
        // unreachable now: kept for the next connection
      }
    });
    await Promise.all([...kills, ...[...this.envFiles].map((path) => this.removeEnvFile(path))]);
  }
}
