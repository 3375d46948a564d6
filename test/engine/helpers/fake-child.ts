// A ChildHandle without a process, for the unit tests of Session and its readers: it records what the session asks
// of it, and `sessionWith` drives the session through the sink a backend would use.
import type { CursorKeyMode } from "../../../src/engine/key-encoder.js";
import { Session } from "../../../src/engine/session.js";
import type { ChildHandle, TerminationSignal } from "../../../src/engine/spawn/child-handle.js";

export interface FakeChild extends ChildHandle {
  readonly signals: TerminationSignal[];
  readonly written: string[];
  ended: boolean;
  unrefed: boolean;
  released: boolean;
  mode: CursorKeyMode;
}

export function fakeChild(options: { signallable?: boolean; pty?: boolean; holders?: number[] } = {}): FakeChild {
  const signals: TerminationSignal[] = [];
  const written: string[] = [];
  const child: FakeChild = {
    pid: 4242,
    pty: options.pty ?? false,
    mode: options.pty ? "unknown" : "normal",
    get cursorKeyMode() {
      return child.mode;
    },
    signals,
    written,
    ended: false,
    unrefed: false,
    released: false,
    stdin: {
      write: async (data) => void written.push(String(data)),
      end: () => void (child.ended = true),
      get writable() {
        return !child.ended;
      },
    },
    signal: options.signallable === false ? undefined : (signal) => void signals.push(signal),
    release: () => void (child.released = true),
    outputHolders: () => options.holders ?? [],
    unref: () => void (child.unrefed = true),
  };
  return child;
}

let seq = 0;

export function newSession(overrides: { id?: string; command?: string; scopeKey?: string; ttlMs?: number } = {}): Session {
  seq += 1;
  return new Session({
    id: overrides.id ?? `test-session-${seq}`, seq, command: overrides.command ?? "echo hi", scopeKey: overrides.scopeKey ?? "scope",
    cwd: "/tmp", aggregateCap: 10_000, pendingCap: 10_000, ttlMs: overrides.ttlMs ?? 60_000, marker: `marker-${seq}`,
  });
}

/** A session attached to a fake child. */
export function sessionWith(
  options: Parameters<typeof fakeChild>[0] = {}, overrides: Parameters<typeof newSession>[0] = {},
): { session: Session; child: FakeChild } {
  const session = newSession(overrides);
  const child = fakeChild(options);
  session.attach(child);
  return { session, child };
}

/** What a backend reports when the command printed `output` and exited with `code`/`signal`. */
export function finish(session: Session, output: string, code: number | null, signal: string | null = null): void {
  if (output) session.sink.onOutput("stdout", output);
  session.sink.onExit(code, signal);
  session.sink.onComplete(code, signal);
}
