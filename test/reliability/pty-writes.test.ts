// Input to a PTY (INPUT-01, INPUT-08, PTY-10, issue 9): queued and written only as fast as the terminal takes it.
// A program that does not read must not keep the host busy, ending it must not make node-pty print a write error,
// and a program that reads gets every byte in order.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LocalSessionEngine } from "../../src/engine/index.js";
import { ctx, disposeEngines, newEngine, pollUntilDone, sessionIdOf, sleep, textOf } from "./helpers.js";

afterEach(disposeEngines);
afterEach(() => {
  vi.restoreAllMocks();
});

const MEGABYTE = 1_000_000;
const WINDOW_MS = 2_000;

/** Starts a PTY session in raw mode without echo and waits until the shell has applied it. */
async function rawSession(engine: LocalSessionEngine, then: string): Promise<string> {
  const id = sessionIdOf(await engine.exec({ command: `stty raw -echo; echo ready; ${then}`, pty: true, background: true }, ctx));
  const ready = await engine.process({ action: "poll", sessionId: id, timeout: 30_000 }, ctx);
  expect(textOf(ready)).toContain("ready");
  return id;
}

/** Everything written to the host's stderr or console.error from now on. */
function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(" "));
  });
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(String(chunk));
    return (write as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean)(chunk, ...rest);
  });
  return lines;
}

describe("a 1 MB write to a PTY program that does not read", () => {
  it("returns at once, leaves the host mostly idle, and kill afterwards prints nothing to stderr", async () => {
    const engine = newEngine();
    const id = await rawSession(engine, "sleep 1400");
    const stderr = captureStderr();
    const wrote = await engine.process({ action: "write", sessionId: id, data: "x".repeat(MEGABYTE) }, ctx);
    expect(textOf(wrote)).toBe(`Wrote ${String(MEGABYTE)} bytes to session ${id}.`);

    const before = process.cpuUsage();
    const started = performance.now();
    await sleep(WINDOW_MS);
    const used = process.cpuUsage(before);
    const share = (used.user + used.system) / 1000 / (performance.now() - started);
    expect(share, `host CPU during the window: ${(share * 100).toFixed(1)} % of one core`).toBeLessThan(0.3);

    const killed = await engine.process({ action: "kill", sessionId: id }, ctx);
    expect(killed.details.status).not.toBe("failed");
    const done = await pollUntilDone(engine, id);
    expect(done.details.exitSignal).toBe("SIGTERM");
    await sleep(300); // a write error of a dead terminal would be printed by now
    expect(stderr.filter((line) => /pty write error|EBADF|EIO/.test(line))).toEqual([]);
  }, 60_000);
});

describe("input to a PTY program that does not read, beyond 16 MiB pending", () => {
  it("is refused with a clear error naming what is pending; earlier input stays queued", async () => {
    const engine = newEngine();
    const id = await rawSession(engine, "sleep 1400");
    const mebibyte = "x".repeat(1024 * 1024);
    let accepted = 0;
    let refusal: unknown;
    for (let i = 0; i < 20 && refusal === undefined; i += 1) {
      try {
        await engine.process({ action: "write", sessionId: id, data: mebibyte }, ctx);
        accepted += 1;
      } catch (error) {
        refusal = error;
      }
    }
    // The terminal itself takes some input before refusing (its own buffers), so a few more than 16 fit.
    expect(accepted).toBeGreaterThanOrEqual(16);
    expect(accepted).toBeLessThan(20);
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toMatch(
      /^Input not sent: the terminal still holds \d+ bytes of earlier input that the program has not read\. Wait until it reads its input \(poll shows its progress\), or kill the session\.$/,
    );
    const listed = await engine.process({ action: "poll", sessionId: id, timeout: 0 }, ctx);
    expect(listed.details.status).toBe("running");
  }, 60_000);
});

describe("a 1 MB write to a PTY program that reads", () => {
  it("arrives whole and in order (same MD5 on both sides)", async () => {
    const engine = newEngine();
    const id = await rawSession(engine, `head -c ${String(MEGABYTE)} | md5sum`);
    const payload = Array.from({ length: MEGABYTE }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 94))).join("");
    await engine.process({ action: "write", sessionId: id, data: payload }, ctx);
    const done = await pollUntilDone(engine, id);
    expect(done.details.exitCode).toBe(0);
    expect(String(done.details["aggregated"])).toContain(createHash("md5").update(payload).digest("hex"));
  }, 60_000);
});
