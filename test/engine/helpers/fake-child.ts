// A ChildHandle without a process, for the unit tests of Session and its readers: it records what the session asks
// of it, and `sessionWith` drives the session through the sink a backend would use.
import type { CursorKeyMode } from "../../../src/engine/key-encoder.js";
import { Session } from "../../../src/engine/session.js";
import type { ChildHandle, ChildSink, TerminationSignal } from "../../../src/engine/spawn/child-handle.js";

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

/** The sink each session handed to its (fake) spawn: what a backend reports to. */
const sinks = new WeakMap<Session, ChildSink>();

/** Starts `session` on `child` at once, as a backend whose spawn has returned; the sink is kept for `sinkOf`. */
export function attachChild(session: Session, child: ChildHandle): void {
  void session.start((sink) => {
    sinks.set(session, sink);
    return child;
  });
}

/** The sink a backend of `session` reports to. */
export function sinkOf(session: Session): ChildSink {
  const sink = sinks.get(session);
  if (!sink) throw new Error(`session ${session.id} was not started with attachChild`);
  return sink;
}

/** A session attached to a fake child. */
export function sessionWith(
  options: Parameters<typeof fakeChild>[0] = {}, overrides: Parameters<typeof newSession>[0] = {},
): { session: Session; child: FakeChild; sink: ChildSink } {
  const session = newSession(overrides);
  const child = fakeChild(options);
  attachChild(session, child);
  return { session, child, sink: sinkOf(session) };
}

/** What a backend reports when the command printed `output` and exited with `code`/`signal`. */
export function finish(session: Session, output: string, code: number | null, signal: string | null = null): void {
  const sink = sinkOf(session);
  if (output) sink.onOutput("stdout", output);
  sink.onExit(code, signal);
  sink.onComplete(code, signal);
}
