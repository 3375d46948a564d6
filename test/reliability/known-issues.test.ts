// Engine issues found by the reliability work that lie outside the files this suite may change. Each is a skipped
// test with its reason, so that the repro stays runnable (`it.skip` → `it`) for whoever fixes it.
import { afterEach, describe, expect, it } from "vitest";
import { ctx, disposeEngines, newEngine, sessionIdOf, sleep, textOf } from "./helpers.js";

afterEach(disposeEngines);

describe("known issues", () => {
  // INPUT-01/INPUT-08, PTY-10 — src/engine/spawn/pty-backend.ts hands the whole payload to node-pty, whose write queue
  // retries EAGAIN with setImmediate. When the PTY program does not read its input and the payload exceeds the
  // terminal's input queue (a multi-line write of 100 KB), the host's event loop spins (about 80 % of a core,
  // measured) until the program reads or ends; when the session then ends, node-pty logs
  // "Unhandled pty write error … EBADF" to stderr. Skipped: it is a CPU measurement, and the fix belongs to
  // pty-backend.ts (e.g. bounded writes with timer back-off, or a refusal beyond the queue size).
  it.skip("a pending large PTY write does not keep the host busy (known issue: node-pty EAGAIN spin)", async () => {
    const engine = newEngine();
    const id = sessionIdOf(await engine.exec({ command: "sleep 30", pty: true, background: true }, ctx));
    const wrote = await engine.process({ action: "write", sessionId: id, data: "xxxxxxx\n".repeat(12_500) }, ctx);
    expect(textOf(wrote)).toBe(`Wrote 100000 bytes to session ${id}.`);
    const before = process.cpuUsage();
    await sleep(2_000);
    const used = process.cpuUsage(before);
    expect((used.user + used.system) / 1000 / 2_000).toBeLessThan(0.5);
  });
});
