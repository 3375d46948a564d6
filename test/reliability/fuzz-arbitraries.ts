// Arbitraries for the bad-input tests: hostile values of every shape, harmless commands, and the checks that a
// model-facing text carries no stack trace or source path.
import fc from "fast-check";

/** Single code units and characters that stress decoding and sanitizing. */
const UNITS = [
  "a", "Z", "0", " ", "'", '"', "\\", "$", "`", "%", ";", "&", "|", "\n", "\r", "\t", "\x00", "\x07", "\x1b", "\x7f",
  "\x9b", "é", "你", "😀", "\u200d", "\ufeff", "\ud800", "\udc00", "\u2028", "~", "*", "?", "/", "..",
];
const unit = fc.oneof(fc.constantFrom(...UNITS), fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)));

/** Short hostile strings: quotes, controls, escapes, lone surrogates, unicode. */
export const fuzzString = fc.string({ unit, maxLength: 40 });

/** Strings from empty to 200 000 characters (huge ones are a repeated pattern, to keep generation cheap). */
export const sizedString = fc.oneof(
  { weight: 6, arbitrary: fuzzString },
  { weight: 1, arbitrary: fc.constant("") },
  {
    weight: 1,
    arbitrary: fc.tuple(fuzzString, fc.integer({ min: 1_000, max: 200_000 }))
      .map(([s, n]) => (s || "x").repeat(Math.ceil(n / (s.length || 1))).slice(0, n)),
  },
);

/** Numbers that a clamp must survive. */
export const fuzzNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 0.5, 1e-9, 2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, -Number.MAX_VALUE, Number.NaN,
    Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.EPSILON),
  fc.double(),
  fc.integer(),
);

/** A JSON-like value of the wrong kind for most fields (what a confused model may send). */
export const wrongValue = fc.oneof(
  fc.constant(null), fc.boolean(), fuzzNumber, fuzzString, fc.array(fc.oneof(fuzzString, fuzzNumber), { maxLength: 3 }),
  fc.dictionary(fuzzString, fuzzString, { maxKeys: 3 }),
);

/** Beyond JSON: what only a direct engine caller can pass. */
export const exoticValue = fc.oneof(
  wrongValue, fc.constant(undefined), fc.bigInt(), fc.constant(Symbol("s")), fc.constant(() => 1), fc.date(),
  fc.constant(Object.create(null) as object), fc.constant(new Map([["a", "b"]])), fc.anything({ maxDepth: 2 }),
);

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Harmless commands only: the fuzzed text is always a quoted argument of printf or echo. */
export const safeCommand = fc.oneof(
  fc.constantFrom("true", "echo x", "printf ''", "exit 3", "echo err >&2", " "),
  fuzzString.map((payload) => `printf %s ${shellQuote(payload)}`),
  sizedString.map((payload) => `echo ${shellQuote(payload.slice(0, 1_000))}`),
);

/** `field?: value` for fc.record: absent or a value of the right type (which may still be hostile). */
export function field<T>(sensible: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(sensible, { nil: undefined, freq: 2 });
}

/**
 * Arguments with at most a few fields of the wrong kind: mostly well-typed (so calls reach the engine), sometimes
 * one or two fields replaced by `wrong` values, sometimes unknown keys added.
 */
export function corrupted(
  args: fc.Arbitrary<Record<string, unknown>>, keys: readonly string[], wrong: fc.Arbitrary<unknown> = wrongValue,
): fc.Arbitrary<Record<string, unknown>> {
  const replacement = fc.tuple(fc.constantFrom(...keys), wrong);
  return fc.tuple(
    args,
    fc.oneof({ weight: 5, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(replacement, { minLength: 1, maxLength: 2 }) }),
    fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, {
      weight: 1, arbitrary: fc.dictionary(fc.constantFrom("extra", "ask", "security", "__meta", "ÿ"), wrong, { maxKeys: 2 }),
    }),
  ).map(([base, replaced, unknown]) => compact({ ...unknown, ...base, ...Object.fromEntries(replaced) }));
}

/** Drops undefined entries so that "absent" really is absent. */
export function compact(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/** Every string found in a value (the echo of a fuzzed value is allowed in the text). */
export function stringsIn(value: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof value === "string") out.push(value);
  else if (value && typeof value === "object" && depth < 4) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsIn(item, out, depth + 1);
    }
  }
  return out;
}

const STACK_FRAME = /\n\s*at\s+\S|\bat\s+(?:async\s+)?[\w.<>$]+\s+\((?:file:|\/|node:)/;
const SOURCE_PATH = /(?:file:\/\/|\/)[\w@.+-]+(?:\/[\w@.+-]+)*\.(?:ts|js|mjs|cjs)\b/;

/**
 * Problems of a model-facing text: a stack frame or a source path. The fuzzed values themselves are removed first,
 * because a clear message may echo them (e.g. `Invalid exec host "<value>"`).
 */
export function leaks(text: string, inputs: readonly string[]): string[] {
  let rest = text;
  for (const input of [...inputs].filter((s) => s.length > 0).sort((a, b) => b.length - a.length)) rest = rest.split(input).join("");
  const problems: string[] = [];
  if (STACK_FRAME.test(rest)) problems.push(`stack frame in: ${rest.slice(0, 300)}`);
  if (SOURCE_PATH.test(rest)) problems.push(`source path in: ${rest.slice(0, 300)}`);
  return problems;
}

/** Rejects with a marker when the call does not settle in time: a hang is a failure, not a slow pass. */
export async function settleWithin<T>(promise: Promise<T>, ms: number, label: string): Promise<{ value?: T; error?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HANG: ${label} did not settle within ${ms} ms`)), ms);
  });
  try {
    return { value: await Promise.race([promise, deadline]) };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("HANG:")) throw error;
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

/** exec arguments: harmless commands, hostile but mostly well-typed values, sometimes wrong kinds. */
export const execArgs = (wrong: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> => corrupted(fc.record({
  command: fc.oneof({ weight: 9, arbitrary: safeCommand }, { weight: 1, arbitrary: fc.constant("") }),
  workdir: field(fc.oneof(fc.constantFrom("", ".", "/", "/nonexistent/dir", "..", "~", "  "), fuzzString)),
  env: field(fc.dictionary(fc.oneof({ weight: 1, arbitrary: fuzzString }, {
    weight: 4, arbitrary: fc.constantFrom("FOO", "_x1", "PATH", "LD_PRELOAD", "BAD KEY", "A()", " X "),
  }), fuzzString, { maxKeys: 3 })),
  yieldMs: field(fuzzNumber),
  background: field(fc.boolean()),
  timeoutSeconds: field(fuzzNumber),
  timeout: field(fuzzNumber),
  pty: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.boolean() }),
  elevated: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.boolean() }),
  host: fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom("auto", "gateway", "sandbox", "node", "") },
    { weight: 1, arbitrary: fuzzString },
  ),
  node: field(fuzzString),
  title: field(sizedString),
}, { requiredKeys: ["command"] }), ["command", "workdir", "env", "yieldMs", "background", "timeoutSeconds", "pty", "host", "title"], wrong);
