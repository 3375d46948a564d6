// The bounded waits the steps share: how long a session may take to finish, and how often the kit looks.
import type { ConformanceWorld } from "./world.js";

/** The longest a step waits for a session to finish or an event to be queued (INTERPRETING.md §7). */
export const FINISH_LIMIT_MS = 60_000;
export const CHECK_EVERY_MS = 20;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the session's process is confirmed exited: its id leaves liveSessionIds (REG-14). */
export async function waitUntilNotLive(world: ConformanceWorld, id: string): Promise<void> {
  const instance = await world.ensureStarted();
  const deadline = Date.now() + FINISH_LIMIT_MS;
  while ((await instance.liveSessionIds()).includes(id)) {
    if (Date.now() > deadline) throw new Error(`Session ${id} was still live after ${FINISH_LIMIT_MS} ms.`);
    await sleep(CHECK_EVERY_MS);
  }
}
