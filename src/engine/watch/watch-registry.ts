// Every watch of one engine (issue 34): the lines of each watched session, the matches, the caps, and the events
// they queue on the exit notifier's path, so that every front end that delivers exit events delivers them too.
import { ExecProcessError } from "../errors.js";
import { FORGED_EVENT, type ExitNotifier } from "../exit-notifier.js";
import * as messages from "../messages.js";
import { decodeText, type OutputText } from "../output-text.js";
import type { OutputStream } from "../output-buffer.js";
import type { Session, SessionView } from "../session.js";
import { MS_PER_SECOND, WATCH_FOLD_MS, WATCH_LINE_SHOWN_CHARS, type Settings } from "../settings.js";
import type { WatchView } from "../result-details.js";
import { LineReader } from "./line-reader.js";
import type { NormalizedWatch } from "./normalize-watch.js";

/** One watch: its call, its state, and the matches folded into the next event (once: false). */
interface Watch {
  readonly call: NormalizedWatch;
  readonly view: WatchView;
  timer: NodeJS.Timeout | undefined;
  fold: { count: number; line: string; timer: NodeJS.Timeout } | undefined;
}

/** The watches of one session and the line readers they share (one per stream). */
interface SessionWatches {
  readonly session: Session;
  readonly all: Watch[];
  readonly readers: Record<OutputStream, LineReader>;
  stop: () => void;
}

/** A matched line as an event shows it: whitespace folded, cut with `…`, and quoted when it could read as an event. */
export function shownLine(line: string): string {
  const folded = line.replace(/\s+/g, " ").trim();
  const cut = folded.length > WATCH_LINE_SHOWN_CHARS ? `${folded.slice(0, WATCH_LINE_SHOWN_CHARS - 1)}…` : folded;
  return FORGED_EVENT.test(cut) ? JSON.stringify(cut) : cut;
}

export type WatchOutcome =
  | { kind: "watching"; view: WatchView }
  | { kind: "matched"; view: WatchView; line: string }
  | { kind: "ended"; view: WatchView };

export class WatchRegistry {
  readonly #notifier: ExitNotifier;
  readonly #settings: Settings;
  /** Every watched session, for its views; kept no longer than the session itself. */
  readonly #sessions = new WeakMap<Session, SessionWatches>();
  /** The watched sessions still running: the ones whose watches count against the limits and hold timers. */
  readonly #running = new Set<SessionWatches>();
  #nextId = 1;

  constructor(notifier: ExitNotifier, settings: Settings) {
    this.#notifier = notifier;
    this.#settings = settings;
  }

  /** The session's watches, active and ended, for `list` and `poll`; undefined when it never had one. */
  viewsOf(session: SessionView): WatchView[] | undefined {
    const watched = this.#sessions.get(session as Session);
    return watched ? watched.all.map((watch) => ({ ...watch.view })) : undefined;
  }

  /** `{ watches }` for the details of `list` and `poll`, or nothing when the session never had a watch. */
  watchesField(session: SessionView): { watches?: WatchView[] } {
    const views = this.viewsOf(session);
    return views ? { watches: views } : {};
  }

  /** Starts a watch on a backgrounded session; its retained output is searched first (once). Throws watch-limit. */
  add(session: Session, call: NormalizedWatch): WatchOutcome {
    const view: WatchView = {
      watchId: `w${this.#nextId++}`, pattern: call.pattern, regex: call.regex, once: call.once, state: "watching", matches: 0,
      startedAt: Date.now(), timeoutSeconds: call.timeoutSeconds ?? null,
    };
    if (call.once || session.state === "finished") {
      const line = firstRetainedMatch(session, call, session.state === "finished");
      if (line !== undefined) return { kind: "matched", view: { ...view, state: "matched", matches: 1 }, line: shownLine(line) };
    }
    if (session.state === "finished") return { kind: "ended", view: { ...view, state: "session-ended" } };
    this.#checkLimits(session);
    const watched = this.#watchesOf(session);
    const watch: Watch = { call, view, timer: undefined, fold: undefined };
    if (call.timeoutSeconds !== undefined) {
      watch.timer = setTimeout(() => this.#timedOut(watched, watch), call.timeoutSeconds * MS_PER_SECOND);
      watch.timer.unref();
    }
    watched.all.push(watch);
    return { kind: "watching", view: { ...view } };
  }

  /** Clears every timer; no event follows (the notifier is disposed too). */
  dispose(): void {
    for (const watched of this.#running) this.#release(watched);
  }

  #release(watched: SessionWatches): void {
    watched.stop();
    for (const watch of watched.all) this.#clearTimers(watch);
    this.#running.delete(watched);
  }

  #checkLimits(session: Session): void {
    const active = (watched: SessionWatches) => watched.all.filter((watch) => watch.view.state === "watching").length;
    const own = this.#sessions.get(session);
    const perSession = this.#settings.maxWatchesPerSession;
    if (own && active(own) >= perSession) {
      throw watchLimit(session, "session", perSession, "maxWatchesPerSession");
    }
    let inScope = 0;
    for (const watched of this.#running) if (watched.session.scopeKey === session.scopeKey) inScope += active(watched);
    const perScope = this.#settings.maxWatchesPerScope;
    if (inScope >= perScope) throw watchLimit(session, "scope", perScope, "maxWatchesPerScope");
  }

  #watchesOf(session: Session): SessionWatches {
    const known = this.#sessions.get(session);
    if (known) return known;
    const watched: SessionWatches = {
      session, all: [], readers: { stdout: new LineReader(), stderr: new LineReader() }, stop: () => undefined,
    };
    const stopText = session.onText((stream, text) => {
      try {
        this.#read(watched, stream, text);
      } catch {
        // a watch never breaks the session's output; a line it could not read is not matched
      }
    });
    const stopComplete = session.onComplete(() => this.#sessionEnded(watched));
    watched.stop = () => {
      stopText();
      stopComplete();
    };
    this.#sessions.set(session, watched);
    this.#running.add(watched);
    return watched;
  }

  #read(watched: SessionWatches, stream: OutputStream, text: OutputText): void {
    const active = watched.all.filter((watch) => watch.view.state === "watching");
    if (active.length === 0) return;
    const reader = watched.readers[stream];
    const onLine = (line: string) => this.#matchLine(watched, line);
    const prefilters = active.map((watch) => watch.call.matcher.anyOf);
    if (prefilters.includes(undefined)) {
      reader.push(decodeText(text), onLine);
      return;
    }
    // Every active watch names texts one of which a matching line holds: a piece without any of them is skipped.
    const literals = [...new Set((prefilters as Array<readonly string[]>).flat())];
    const mayMatch = (partial: string, piece: string) =>
      literals.some((literal) => (tailOf(partial, literal.length - 1) + piece).includes(literal));
    // Plain ASCII bytes (the flood case) are searched as bytes, and decoded only when a literal may be in them.
    if (typeof text !== "string" && !reader.partialMayMatch
      && !literals.some((literal) => bytesMayHold(reader, text, literal))) {
      reader.skip(text);
      return;
    }
    reader.push(decodeText(text), onLine, mayMatch);
  }

  #matchLine(watched: SessionWatches, line: string): void {
    for (const watch of watched.all) {
      if (watch.view.state !== "watching" || !watch.call.matcher.test(line)) continue;
      watch.view.matches++;
      if (watch.call.once) {
        this.#end(watch, "matched");
        this.#queue(watched.session, watch, messages.outputMatchedEvent(watched.session.id, shownLine(line)));
      } else if (watch.fold) {
        watch.fold.count++;
      } else {
        const timer = setTimeout(() => this.#flushFold(watched.session, watch), WATCH_FOLD_MS);
        timer.unref();
        watch.fold = { count: 1, line: shownLine(line), timer };
      }
    }
  }

  #flushFold(session: Session, watch: Watch): void {
    const fold = watch.fold;
    if (!fold) return;
    clearTimeout(fold.timer);
    watch.fold = undefined;
    this.#queue(session, watch, messages.outputMatchedEvent(session.id, fold.line, fold.count));
  }

  /** The session ended: its last unfinished lines are matched, then every watch still waiting ends. */
  #sessionEnded(watched: SessionWatches): void {
    for (const reader of Object.values(watched.readers)) reader.flush((line) => this.#matchLine(watched, line));
    const { session } = watched;
    // A kill or remove (and disposal) asked for the end: as for exit events, nothing is announced (KILL-07).
    const announce = session.exitReason !== "manual-cancel";
    for (const watch of watched.all) {
      if (watch.fold && announce) this.#flushFold(session, watch);
      if (watch.view.state !== "watching") continue;
      this.#end(watch, "session-ended");
      if (announce && watch.view.matches === 0) {
        this.#queue(session, watch, messages.watchSessionEndedEvent(session.id, watch.call.pattern));
      }
    }
    this.#release(watched);
  }

  #timedOut(watched: SessionWatches, watch: Watch): void {
    if (watch.view.state !== "watching") return;
    if (watch.fold) this.#flushFold(watched.session, watch);
    this.#end(watch, "timed-out");
    if (watch.view.matches === 0) {
      this.#queue(watched.session, watch,
        messages.watchTimedOutEvent(watched.session.id, watch.call.pattern, watch.call.timeoutSeconds ?? 0));
    }
  }

  #end(watch: Watch, state: WatchView["state"]): void {
    watch.view.state = state;
    if (watch.timer) clearTimeout(watch.timer);
    watch.timer = undefined;
  }

  #clearTimers(watch: Watch): void {
    if (watch.timer) clearTimeout(watch.timer);
    if (watch.fold) clearTimeout(watch.fold.timer);
    watch.timer = undefined;
    watch.fold = undefined;
  }

  #queue(session: Session, watch: Watch, text: string): void {
    this.#notifier.queueEvent({
      scopeKey: session.scopeKey, sessionId: session.id, text, contextKey: `watch:${session.id}:${watch.view.watchId}`,
    });
  }
}

function watchLimit(session: Session, per: "session" | "scope", limit: number, setting: string): ExecProcessError {
  return new ExecProcessError({ code: "watch-limit", param: "sessionId", per, limit, setting, sessionId: session.id });
}

/** The first retained line that matches: complete lines only while the session runs, every line once it ended. */
function firstRetainedMatch(session: SessionView, call: NormalizedWatch, ended: boolean): string | undefined {
  const reader = new LineReader();
  let found: string | undefined;
  const onLine = (line: string) => {
    if (found === undefined && call.matcher.test(line)) found = line;
  };
  const literal = call.matcher.literal;
  reader.push(session.output.aggregate, onLine, literal === undefined ? undefined : (partial, piece) => (partial + piece).includes(literal));
  if (ended) reader.flush(onLine);
  return found;
}

/** The last `chars` characters ("" for none): where a match that spans into the next piece can begin. */
function tailOf(text: string, chars: number): string {
  return chars > 0 ? text.slice(-chars) : "";
}

/** The literal may be in the bytes, or span from the line in progress into them. */
function bytesMayHold(reader: LineReader, bytes: Uint8Array, literal: string): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (view.indexOf(literal, 0, "utf8") >= 0) return true;
  const head = view.subarray(0, literal.length - 1).toString("latin1");
  return (reader.partialTail(literal.length - 1) + head).includes(literal);
}
