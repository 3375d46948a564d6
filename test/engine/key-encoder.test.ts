import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BRACKETED_PASTE_END,
  BRACKETED_PASTE_START,
  type CursorKeyMode,
  EOF_CHAR,
  SUBMIT_BYTES,
  encodeSendKeys,
  hasUnmodifiedCursorKey,
} from "../../src/engine/key-encoder.js";

const ESC = "\x1b";

// Space-separated lower-case hex, the notation SPEC §8.4 uses for bytes.
const hexOf = (bytes: Buffer): string => [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join(" ");
const hexOfText = (text: string): string => hexOf(Buffer.from(text, "utf8"));

const encodeKey = (token: string, mode: CursorKeyMode = "normal"): { hex: string; warnings: string[] } => {
  const { bytes, warnings } = encodeSendKeys({ keys: [token] }, mode);
  return { hex: hexOf(bytes), warnings };
};

const unknownKeyWarning = (base: string): string => `Unknown key "${base}" for modifiers; sending literal.`;

// KEYS-08, transcribed from the SPEC table: aliases and their bytes in normal cursor mode.
const NAMED_KEY_TABLE: [aliases: string[], hex: string][] = [
  [["enter", "return"], "0d"],
  [["tab"], "09"],
  [["escape", "esc"], "1b"],
  [["space"], "20"],
  [["bspace", "backspace"], "7f"],
  [["up"], "1b 5b 41"],
  [["down"], "1b 5b 42"],
  [["right"], "1b 5b 43"],
  [["left"], "1b 5b 44"],
  [["home"], "1b 5b 31 7e"],
  [["end"], "1b 5b 34 7e"],
  [["pageup", "pgup", "ppage"], "1b 5b 35 7e"],
  [["pagedown", "pgdn", "npage"], "1b 5b 36 7e"],
  [["insert", "ic"], "1b 5b 32 7e"],
  [["delete", "del", "dc"], "1b 5b 33 7e"],
  [["btab"], "1b 5b 5a"],
  [["f1"], "1b 4f 50"],
  [["f2"], "1b 4f 51"],
  [["f3"], "1b 4f 52"],
  [["f4"], "1b 4f 53"],
  [["f5"], "1b 5b 31 35 7e"],
  [["f6"], "1b 5b 31 37 7e"],
  [["f7"], "1b 5b 31 38 7e"],
  [["f8"], "1b 5b 31 39 7e"],
  [["f9"], "1b 5b 32 30 7e"],
  [["f10"], "1b 5b 32 31 7e"],
  [["f11"], "1b 5b 32 33 7e"],
  [["f12"], "1b 5b 32 34 7e"],
  [["kp/"], "1b 4f 6f"],
  [["kp*"], "1b 4f 6a"],
  [["kp-"], "1b 4f 6d"],
  [["kp+"], "1b 4f 6b"],
  [["kp7"], "1b 4f 77"],
  [["kp8"], "1b 4f 78"],
  [["kp9"], "1b 4f 79"],
  [["kp4"], "1b 4f 74"],
  [["kp5"], "1b 4f 75"],
  [["kp6"], "1b 4f 76"],
  [["kp1"], "1b 4f 71"],
  [["kp2"], "1b 4f 72"],
  [["kp3"], "1b 4f 73"],
  [["kp0"], "1b 4f 70"],
  [["kp."], "1b 4f 6e"],
  [["kpenter"], "1b 4f 4d"],
];
const NAMED_KEY_ROWS = NAMED_KEY_TABLE.flatMap(([aliases, hex]) => aliases.map((alias) => ({ alias, hex })));

// Mixed-case spelling of an alias: "pageup" → "PaGeUp".
const mixedCase = (alias: string): string =>
  [...alias].map((char, index) => (index % 2 === 0 ? char.toUpperCase() : char)).join("");

const APPLICATION_ROWS = [
  { alias: "up", hex: "1b 4f 41" },
  { alias: "down", hex: "1b 4f 42" },
  { alias: "right", hex: "1b 4f 43" },
  { alias: "left", hex: "1b 4f 44" },
  { alias: "home", hex: "1b 4f 48" },
  { alias: "end", hex: "1b 4f 46" },
];
const APPLICATION_ALIASES = new Set(APPLICATION_ROWS.map(({ alias }) => alias));

// KEYS-09: every modifiable alias with its `<p>` and `<final>`.
const MODIFIABLE_TABLE: [aliases: string[], param: number, final: string][] = [
  [["up"], 1, "A"],
  [["down"], 1, "B"],
  [["right"], 1, "C"],
  [["left"], 1, "D"],
  [["home"], 1, "~"],
  [["end"], 4, "~"],
  [["pageup", "pgup", "ppage"], 5, "~"],
  [["pagedown", "pgdn", "npage"], 6, "~"],
  [["insert", "ic"], 2, "~"],
  [["delete", "del", "dc"], 3, "~"],
];
// KEYS-09: modifier prefixes and their `<m>`.
const MODIFIER_COMBOS: [prefix: string, m: number][] = [
  ["S-", 2],
  ["M-", 3],
  ["S-M-", 4],
  ["C-", 5],
  ["C-S-", 6],
  ["C-M-", 7],
  ["C-M-S-", 8],
];
const MODIFIED_ROWS = MODIFIABLE_TABLE.flatMap(([aliases, param, final]) =>
  aliases.flatMap((alias) =>
    MODIFIER_COMBOS.map(([prefix, m]) => ({ token: prefix + alias, hex: hexOfText(`${ESC}[${param};${m}${final}`) })),
  ),
);

describe("named keys (KEYS-08)", () => {
  it.for(NAMED_KEY_ROWS)("named key $alias encodes to $hex in normal cursor mode", ({ alias, hex }) => {
    expect(encodeKey(alias)).toEqual({ hex, warnings: [] });
  });

  it.for(NAMED_KEY_ROWS)("named key $alias is matched case-insensitively", ({ alias, hex }) => {
    expect(encodeKey(alias.toUpperCase()).hex).toBe(hex);
    expect(encodeKey(mixedCase(alias)).hex).toBe(hex);
  });

  it.for(APPLICATION_ROWS)("unmodified $alias encodes to $hex in application cursor mode", ({ alias, hex }) => {
    expect(encodeKey(alias, "application")).toEqual({ hex, warnings: [] });
    expect(encodeKey(mixedCase(alias), "application").hex).toBe(hex);
  });

  it.for(NAMED_KEY_ROWS.filter(({ alias }) => !APPLICATION_ALIASES.has(alias)))(
    "named key $alias keeps its normal bytes in application cursor mode",
    ({ alias, hex }) => {
      expect(encodeKey(alias, "application").hex).toBe(hex);
    },
  );

  it.for(NAMED_KEY_ROWS)("named key $alias encodes as in normal mode while the mode is unknown", ({ alias, hex }) => {
    expect(encodeKey(alias, "unknown").hex).toBe(hex);
  });
});

describe("modified named keys (KEYS-09)", () => {
  it.for(MODIFIED_ROWS)("$token encodes to the xterm modified form $hex", ({ token, hex }) => {
    expect(encodeKey(token)).toEqual({ hex, warnings: [] });
  });

  it.for(MODIFIED_ROWS)("$token encodes to the xterm modified form in application cursor mode", ({ token, hex }) => {
    expect(encodeKey(token, "application").hex).toBe(hex);
  });

  it.for([
    { token: "s-m-c-up", hex: hexOfText(`${ESC}[1;8A`) },
    { token: "M-S-C-PgDn", hex: hexOfText(`${ESC}[6;8~`) },
    { token: "m-c-DEL", hex: hexOfText(`${ESC}[3;7~`) },
    { token: "C-C-Up", hex: hexOfText(`${ESC}[1;5A`) },
  ])("modifier prefixes in any order and case give $token the same modifier value", ({ token, hex }) => {
    expect(encodeKey(token).hex).toBe(hex);
  });
});

describe("non-modifiable named keys (KEYS-07 step 6)", () => {
  it.for([
    { token: "M-Enter", hex: "1b 0d" },
    { token: "C-Enter", hex: "0d" },
    { token: "S-Enter", hex: "0d" },
    { token: "C-S-Return", hex: "0d" },
    { token: "M-F5", hex: "1b 1b 5b 31 35 7e" },
    { token: "C-F1", hex: "1b 4f 50" },
    { token: "C-M-F12", hex: "1b 1b 5b 32 34 7e" },
    { token: "M-Escape", hex: "1b 1b" },
    { token: "M-Space", hex: "1b 20" },
    { token: "C-Space", hex: "20" },
    { token: "M-BSpace", hex: "1b 7f" },
    { token: "C-Tab", hex: "09" },
    { token: "M-Tab", hex: "1b 09" },
    { token: "M-BTab", hex: "1b 1b 5b 5a" },
    { token: "M-KP5", hex: "1b 1b 4f 75" },
    { token: "S-KPEnter", hex: "1b 4f 4d" },
  ])("$token encodes to $hex: alt prefixes ESC, ctrl and shift are ignored", ({ token, hex }) => {
    expect(encodeKey(token)).toEqual({ hex, warnings: [] });
  });

  it.for(["S-Tab", "s-tab", "S-TAB", "C-S-Tab", "S-M-Tab", "C-M-S-tab"])(
    "%s encodes to ESC[Z because shift+tab wins over other modifiers (KEYS-07 step 4)",
    (token) => {
      expect(encodeKey(token)).toEqual({ hex: "1b 5b 5a", warnings: [] });
    },
  );
});

describe("encoding pins (KEYS-10)", () => {
  it.for([
    { token: "Enter", hex: "0d" },
    { token: "C-c", hex: "03" },
    { token: "c-C", hex: "03" },
    { token: "^C", hex: "03" },
    { token: "^[", hex: "1b" },
    { token: "^?", hex: "7f" },
    { token: "M-x", hex: "1b 78" },
    { token: "C-M-a", hex: "1b 01" },
    { token: "S-a", hex: "41" },
    { token: "C-1", hex: "31" },
    { token: "S-Tab", hex: "1b 5b 5a" },
    { token: "BSpace", hex: "7f" },
    { token: "KPEnter", hex: "1b 4f 4d" },
    { token: "F5", hex: "1b 5b 31 35 7e" },
    { token: "C-Up", hex: hexOfText(`${ESC}[1;5A`) },
    { token: "S-Up", hex: hexOfText(`${ESC}[1;2A`) },
    { token: "M-Up", hex: hexOfText(`${ESC}[1;3A`) },
    { token: "C-S-Up", hex: hexOfText(`${ESC}[1;6A`) },
    { token: "C-Home", hex: hexOfText(`${ESC}[1;5~`) },
    { token: "C-PageUp", hex: hexOfText(`${ESC}[5;5~`) },
    { token: "C-Delete", hex: hexOfText(`${ESC}[3;5~`) },
    { token: "M-Enter", hex: "1b 0d" },
    { token: "C-Enter", hex: "0d" },
    { token: "foo", hex: "66 6f 6f" },
    { token: "x-y", hex: "78 2d 79" },
  ])("pinned token $token encodes to $hex without warnings", ({ token, hex }) => {
    expect(encodeKey(token)).toEqual({ hex, warnings: [] });
  });

  it("C-foo is sent literally with the unknown-key warning", () => {
    expect(encodeKey("C-foo")).toEqual({ hex: "66 6f 6f", warnings: [unknownKeyWarning("foo")] });
  });

  it.for([
    { mode: "application", hex: "1b 4f 41" },
    { mode: "normal", hex: "1b 5b 41" },
  ] satisfies { mode: CursorKeyMode; hex: string }[])(
    "Up sends $hex in $mode cursor mode (KEYS-12 pin)",
    ({ mode, hex }) => {
      expect(encodeKey("Up", mode).hex).toBe(hex);
    },
  );
});

describe("token parsing edge cases (KEYS-07)", () => {
  it.for([
    { token: "", hex: "", why: "an empty token encodes to nothing" },
    { token: "   ", hex: "", why: "a blank token encodes to nothing" },
    { token: "  Enter\t", hex: "0d", why: "tokens are trimmed" },
    { token: "^c", hex: "03", why: "^X upper-cases X" },
    { token: "^@", hex: "00", why: "^@ is NUL" },
    { token: "^_", hex: "1f", why: "^_ is the top of U+0040–U+005F" },
    { token: "^1", hex: "5e 31", why: "^X outside the control range is literal" },
    { token: "^", hex: "5e", why: "a lone caret is a literal character" },
    { token: "^ab", hex: "5e 61 62", why: "^X needs exactly two characters" },
    { token: "C-", hex: "43 2d", why: "C- alone is a literal base" },
    { token: "S-", hex: "53 2d", why: "S- alone is a literal base" },
    { token: "m-", hex: "6d 2d", why: "m- alone is a literal base" },
    { token: "C--", hex: "2d", why: "ctrl leaves a character outside the control range unchanged" },
    { token: "C-C-c", hex: "03", why: "a repeated modifier is the same modifier" },
    { token: "C-?", hex: "7f", why: "ctrl+? is DEL" },
    { token: "C-[", hex: "1b", why: "ctrl+[ is ESC" },
    { token: "C-@", hex: "00", why: "ctrl+@ is NUL" },
    { token: "C-S-a", hex: "01", why: "shift upper-cases before ctrl maps" },
    { token: "S-M-a", hex: "1b 41", why: "shift then alt" },
    { token: "C-M-S-x", hex: "1b 18", why: "all three modifiers on a letter" },
    { token: "S-1", hex: "31", why: "shift only upper-cases a–z" },
    { token: "S-é", hex: "c3 a9", why: "shift only upper-cases a–z" },
    { token: "M-é", hex: "1b c3 a9", why: "alt prefixes ESC to a non-ASCII character" },
    { token: "C-ß", hex: "c3 9f", why: "ß upper-cases to two characters, so ctrl leaves it" },
    { token: "^ß", hex: "5e c3 9f", why: "^ß is not a control character" },
    { token: "a", hex: "61", why: "a plain character is itself" },
    { token: "A", hex: "41", why: "a plain character is itself" },
    { token: "Up-", hex: "55 70 2d", why: "an unknown multi-character base is literal" },
    { token: "héllo", hex: "68 c3 a9 6c 6c 6f", why: "literal bases are sent as UTF-8" },
    { token: "ctrl-c", hex: "63 74 72 6c 2d 63", why: "only single-letter prefixes are modifiers" },
  ])("$token encodes to [$hex] without warnings because $why", ({ token, hex }) => {
    expect(encodeKey(token)).toEqual({ hex, warnings: [] });
  });

  it.for([
    { token: "M-foo", hex: "66 6f 6f", base: "foo" },
    { token: "S-foo", hex: "66 6f 6f", base: "foo" },
    { token: "C-M-foo", hex: "66 6f 6f", base: "foo" },
    { token: "C-x-y", hex: "78 2d 79", base: "x-y" },
    { token: "M-C-", hex: "43 2d", base: "C-" },
    { token: "C-^C", hex: "5e 43", base: "^C" },
    { token: "M-héllo", hex: "68 c3 a9 6c 6c 6f", base: "héllo" },
  ])("$token sends base $base literally with the unknown-key warning", ({ token, hex, base }) => {
    expect(encodeKey(token)).toEqual({ hex, warnings: [unknownKeyWarning(base)] });
  });
});

describe("hex entries (KEYS-03)", () => {
  it.for([
    { entry: "0x41", hex: "41" },
    { entry: "0X41", hex: "41" },
    { entry: "41", hex: "41" },
    { entry: " 0A ", hex: "0a" },
    { entry: "7", hex: "07" },
    { entry: "0x0", hex: "00" },
    { entry: "ff", hex: "ff" },
    { entry: "0x80", hex: "80" },
    { entry: "FF", hex: "ff" },
  ])("hex entry '$entry' contributes the single raw byte $hex", ({ entry, hex }) => {
    const { bytes, warnings } = encodeSendKeys({ hex: [entry] }, "normal");
    expect(hexOf(bytes)).toBe(hex);
    expect(warnings).toEqual([]);
  });

  it.for(["zz", "0xfff", "g", "0x", "", "  ", "0x 41", "-1", "+1", "0x0x1", " zz ", "1 2"])(
    "hex entry '%s' is skipped with a warning naming the entry as given",
    (entry) => {
      const { bytes, warnings } = encodeSendKeys({ hex: [entry] }, "normal");
      expect(bytes.length).toBe(0);
      expect(warnings).toEqual([`Invalid hex byte: ${entry}`]);
    },
  );
});

describe("payload assembly (KEYS-02, KEYS-11)", () => {
  it.for([
    {
      name: "the KEYS-02 pin",
      input: { literal: "L", hex: ["0x41", "zz"], keys: ["a", "b", "Enter"] },
      hex: "4c 41 61 62 0d",
      warnings: ["Invalid hex byte: zz"],
    },
    {
      name: "the KEYS-11 literal/hex/keys pin",
      input: { literal: "hi", hex: ["0d", "0x0a", "zz"], keys: ["Enter"] },
      hex: hexOfText("hi\r\n\r"),
      warnings: ["Invalid hex byte: zz"],
    },
    { name: "the KEYS-11 keys-only pin", input: { keys: ["h", "i", "Enter"] }, hex: hexOfText("hi\r"), warnings: [] },
    { name: "a UTF-8 literal followed by a raw high byte", input: { literal: "é", hex: ["ff"] }, hex: "c3 a9 ff", warnings: [] },
    {
      name: "hex warnings before key warnings",
      input: { keys: ["C-foo", "M-bar"], hex: ["g"] },
      hex: hexOfText("foobar"),
      warnings: ["Invalid hex byte: g", unknownKeyWarning("foo"), unknownKeyWarning("bar")],
    },
  ])("payload for $name encodes to $hex with its warnings in order", ({ input, hex, warnings }) => {
    const encoded = encodeSendKeys(input, "normal");
    expect(hexOf(encoded.bytes)).toBe(hex);
    expect(encoded.warnings).toEqual(warnings);
  });

  it.for([
    { case: "no parts", input: {} },
    { case: "an empty literal", input: { literal: "" } },
    { case: "only invalid hex", input: { hex: ["zz"] } },
    { case: "only empty tokens", input: { keys: ["", "  "] } },
  ])("an input with $case yields an empty payload (the caller reports KEYS-05)", ({ input }) => {
    expect(encodeSendKeys(input, "normal").bytes.length).toBe(0);
  });
});

describe("cursor-mode guard (KEYS-06)", () => {
  it.for([
    { keys: ["Up"], expected: true },
    { keys: ["down"], expected: true },
    { keys: ["LEFT"], expected: true },
    { keys: ["rIgHt"], expected: true },
    { keys: ["Home"], expected: true },
    { keys: ["end"], expected: true },
    { keys: ["  up  "], expected: true },
    { keys: ["a", "Enter", "Up"], expected: true },
    { keys: ["C-Up"], expected: false },
    { keys: ["S-Home"], expected: false },
    { keys: ["m-end"], expected: false },
    { keys: ["PageUp", "Insert", "Delete", "Enter", "F1"], expected: false },
    { keys: ["x-up", "upper", "^A"], expected: false },
    { keys: [], expected: false },
    { keys: undefined, expected: false },
  ])("keys $keys contain an unmodified cursor key: $expected", ({ keys, expected }) => {
    expect(hasUnmodifiedCursorKey(keys)).toBe(expected);
  });
});

describe("terminal control constants", () => {
  it.for([
    { name: "BRACKETED_PASTE_START", value: BRACKETED_PASTE_START, expected: `${ESC}[200~` },
    { name: "BRACKETED_PASTE_END", value: BRACKETED_PASTE_END, expected: `${ESC}[201~` },
    { name: "SUBMIT_BYTES", value: SUBMIT_BYTES, expected: "\r" },
    { name: "EOF_CHAR", value: EOF_CHAR, expected: "\x04" },
  ])("$name has its specified value", ({ value, expected }) => {
    expect(value).toBe(expected);
  });
});

describe("encoding properties", () => {
  const randomCase = (text: string): fc.Arbitrary<string> =>
    fc
      .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
      .map((flags) => [...text].map((char, index) => (flags[index] ? char.toUpperCase() : char)).join(""));
  const prefix = fc.constantFrom("C-", "M-", "S-", "c-", "m-", "s-");
  const tableName = fc.constantFrom(...NAMED_KEY_ROWS.map(({ alias }) => alias)).chain(randomCase);
  const token = fc
    .tuple(fc.array(prefix, { maxLength: 4 }), fc.oneof(tableName, fc.string({ maxLength: 4 })))
    .map(([prefixes, base]) => prefixes.join("") + base);
  const mode = fc.constantFrom<CursorKeyMode>("unknown", "normal", "application");

  it("encoding a token list never throws and equals the concatenation of each token encoded alone", () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), mode, (tokens, cursorMode) => {
        const whole = encodeSendKeys({ keys: tokens }, cursorMode);
        const alone = tokens.map((one) => encodeSendKeys({ keys: [one] }, cursorMode));
        expect(whole.bytes.length).toBe(alone.reduce((sum, { bytes }) => sum + bytes.length, 0));
        expect(whole.bytes.equals(Buffer.concat(alone.map(({ bytes }) => bytes)))).toBe(true);
        expect(whole.warnings).toEqual(alone.flatMap(({ warnings }) => warnings));
      }),
    );
  });

  it("a table name with modifiers never produces a warning", () => {
    fc.assert(
      fc.property(fc.array(prefix, { maxLength: 4 }), tableName, mode, (prefixes, name, cursorMode) => {
        expect(encodeSendKeys({ keys: [prefixes.join("") + name] }, cursorMode).warnings).toEqual([]);
      }),
    );
  });
});
