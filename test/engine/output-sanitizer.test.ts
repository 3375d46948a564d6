import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOutputSanitizer } from "../../src/engine/output-sanitizer.js";

const ESC = "\x1b";
const BEL = "\x07";
const encoder = new TextEncoder();

function sanitizeChunks(chunks: Array<Uint8Array | string>): string {
  const sanitizer = createOutputSanitizer();
  return chunks.map((chunk) => sanitizer.write(chunk)).join("") + sanitizer.end();
}

const sanitize = (text: string): string => sanitizeChunks([text]);

// Characters that OUT-04/05/06 must never let through.
const FORBIDDEN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Cs}]/u;

const ALPHABET = [
  ESC, ESC, ESC, "[", "[", "]", ";", "0", "1", "3", "9", "?", "m", "A", "H", "P", "X", "^", "_", "(", ")", "B",
  " ", "!", "\\", BEL, "\n", "\r", "\t", "\x00", "\x7f", "\x9b", "\x9c", "\x9d", "\x85", "a", "z", "~",
  "é", "你", "好", "😀", "\u200d", "\ufeff", "\u{E0001}", "\ud800", "\udc00",
];
const richText = fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 60 });

describe("createOutputSanitizer", () => {
  describe("escape sequences (OUT-04)", () => {
    it.each([
      ["SGR colour codes", `${ESC}[31mred${ESC}[0m`, "red"],
      ["a CSI with private parameters and an intermediate", `a${ESC}[?25h${ESC}[1 qb`, "ab"],
      ["a C1 CSI", "a\x9b2Jb", "ab"],
      ["an OSC title ended by BEL", `a${ESC}]0;title${BEL}b`, "ab"],
      ["an OSC title ended by ESC \\", `a${ESC}]0;title${ESC}\\b`, "ab"],
      ["an OSC introduced by C1 and ended by C1 ST", "a\x9d8;;http://x\x9cb", "ab"],
      ["a DCS string", `a${ESC}Pq#0;2;0;0;0${ESC}\\b`, "ab"],
      ["SOS, PM and APC strings", `a${ESC}Xs${ESC}\\b${ESC}^p${ESC}\\c${ESC}_a${BEL}x${ESC}\\d`, "abcd"],
      ["a charset designation", `a${ESC}(Bb${ESC})0c`, "abc"],
      ["two-character escapes", `a${ESC}=b${ESC}7c${ESC}Md`, "abcd"],
    ])("removes %s", (_name, input, expected) => {
      expect(sanitize(input)).toBe(expected);
    });

    it("removes an escape sequence that arrives split across byte chunks", () => {
      const bytes = encoder.encode(`x${ESC}[38;5;196my${ESC}]0;t${ESC}\\z`);
      for (let cut = 0; cut <= bytes.length; cut++) {
        expect(sanitizeChunks([bytes.slice(0, cut), bytes.slice(cut)])).toBe("xyz");
      }
    });

    it("drops a lone ESC still incomplete at end of stream", () => {
      const sanitizer = createOutputSanitizer();
      expect(sanitizer.write(`done${ESC}`)).toBe("done");
      expect(sanitizer.end()).toBe("");
    });

    it("drops an unterminated OSC and CSI at end of stream", () => {
      expect(sanitize(`a${ESC}]0;never ends`)).toBe("a");
      expect(sanitize(`a${ESC}[12;`)).toBe("a");
    });

    it("ends a malformed CSI at the offending character and processes that character normally", () => {
      expect(sanitize(`a${ESC}[12\nb`)).toBe("a\nb");
      expect(sanitize(`a${ESC}[1${ESC}[2mb`)).toBe("ab");
      expect(sanitize(`a${ESC}[ 1m`)).toBe("a1m");
    });

    it("writes an ESC that starts no recognized sequence as \\x1b", () => {
      expect(sanitize(`a${ESC}\x01b`)).toBe("a\\x1b\\x01b");
      expect(sanitize(`a${ESC}éb`)).toBe("a\\x1béb");
      expect(sanitize(`a${ESC}${ESC}[0mb`)).toBe("a\\x1bb");
    });

    it("keeps an ESC inside an OSC as part of the string until the terminator", () => {
      expect(sanitize(`a${ESC}]0;x${ESC}[y${BEL}b`)).toBe("ab");
      expect(sanitize(`a${ESC}]0;x${ESC}${ESC}\\b`)).toBe("ab");
      expect(sanitize(`a${ESC}Px${ESC}${BEL}y${ESC}${ESC}\\b`)).toBe("ab");
    });
  });

  describe("decoding (OUT-03)", () => {
    it("decodes a multi-byte character split at every byte position", () => {
      const bytes = encoder.encode("你好😀");
      for (let cut = 0; cut <= bytes.length; cut++) {
        expect(sanitizeChunks([bytes.slice(0, cut), bytes.slice(cut)])).toBe("你好😀");
      }
    });

    it("decodes one byte per chunk", () => {
      const bytes = encoder.encode("é你😀");
      expect(sanitizeChunks(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toBe("é你😀");
    });

    it("replaces invalid byte sequences with U+FFFD", () => {
      expect(sanitizeChunks([Uint8Array.of(0x61, 0xff, 0x62, 0xc3)])).toBe("a\ufffdb\ufffd");
    });

    it("takes string chunks as decoded text and rejoins a surrogate pair split between them", () => {
      expect(sanitizeChunks(["a\ud83d", "\ude00b"])).toBe("a😀b");
    });
  });

  describe("plain ASCII chunks after a chunk that left state behind", () => {
    const ascii = (text: string): Uint8Array => encoder.encode(text);

    it("returns a plain ASCII chunk from writeText as the same bytes, and decoded from write", () => {
      const chunk = ascii("make: ok\tdone\r\n");
      const sanitizer = createOutputSanitizer();
      expect(sanitizer.writeText(chunk)).toBe(chunk);
      expect(sanitizer.write(chunk)).toBe("make: ok\tdone\r\n");
      expect(sanitizer.writeText(ascii(`${ESC}[0m`))).toBe("");
    });

    it("continues an escape sequence cut before a plain chunk", () => {
      const sanitizer = createOutputSanitizer();
      expect(sanitizer.write(ascii(`a${ESC}[3`))).toBe("a");
      expect(sanitizer.write(ascii("1mred"))).toBe("red");
      expect(sanitizer.write(ascii(`${ESC}]0;ti`))).toBe("");
      expect(sanitizer.write(ascii("tle"))).toBe("");
      expect(sanitizer.write(ascii(`${BEL}ok\n`))).toBe("ok\n");
    });

    it("writes U+FFFD for an incomplete UTF-8 sequence followed by a plain chunk", () => {
      const sanitizer = createOutputSanitizer();
      expect(sanitizer.write(Uint8Array.of(0x61, 0xe4, 0xbd))).toBe("a");
      expect(sanitizer.write(ascii("ok"))).toBe("\ufffdok");
      expect(sanitizer.end()).toBe("");
    });

    it("keeps a multi-byte character split around an empty chunk", () => {
      const sanitizer = createOutputSanitizer();
      expect(sanitizer.write(Uint8Array.of(0xe4, 0xbd))).toBe("");
      expect(sanitizer.write(new Uint8Array(0))).toBe("");
      expect(sanitizer.write(Uint8Array.of(0xa0))).toBe("你");
    });

    it("removes a high surrogate held from a string chunk when a plain chunk follows", () => {
      const sanitizer = createOutputSanitizer();
      expect(sanitizer.write("a\ud83d")).toBe("a");
      expect(sanitizer.write(ascii("b"))).toBe("b");
      expect(sanitizer.write("\ude00c")).toBe("c");
    });
  });

  describe("format and control characters (OUT-05, OUT-06)", () => {
    it("removes format characters such as U+200D and U+FEFF", () => {
      expect(sanitize("a\u200db\ufeffc\u{E0001}d")).toBe("abcd");
    });

    it("removes lone surrogates", () => {
      expect(sanitize("a\udc00b\ud800")).toBe("ab");
    });

    it.each([
      ["U+0001", "\x01", "\\x01"],
      ["NUL", "\x00", "\\x00"],
      ["DEL", "\x7f", "\\x7f"],
      ["a C1 control", "\x85", "\\x85"],
      ["backspace", "\b", "\\x08"],
    ])("writes %s as literal \\x text", (_name, input, expected) => {
      expect(sanitize(`a${input}b`)).toBe(`a${expected}b`);
    });

    it("keeps TAB, LF and CR unchanged", () => {
      expect(sanitize("a\tb\r\nc")).toBe("a\tb\r\nc");
    });

    it("returns plain text unchanged", () => {
      const text = "hello world\n".repeat(1000);
      expect(sanitize(text)).toBe(text);
    });
  });

  describe("properties", () => {
    it("gives the same output however the UTF-8 bytes are split into chunks", () => {
      fc.assert(
        fc.property(richText, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
          const bytes = encoder.encode(text);
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks: Uint8Array[] = [];
          let start = 0;
          for (const point of [...points, bytes.length]) {
            chunks.push(bytes.slice(start, point));
            start = point;
          }
          expect(sanitizeChunks(chunks)).toBe(sanitizeChunks([bytes]));
        }),
        { numRuns: 2000 },
      );
    });

    it("gives the same output however string input is split, even inside a surrogate pair", () => {
      fc.assert(
        fc.property(richText, fc.nat(), (text, cut) => {
          const at = cut % (text.length + 1);
          expect(sanitizeChunks([text.slice(0, at), text.slice(at)])).toBe(sanitize(text));
        }),
        { numRuns: 2000 },
      );
    });

    it("gives the slow path's output for byte chunks that mix plain ASCII with text that needs the sanitizer", () => {
      const plainText = fc.string({ unit: fc.constantFrom("a", "Z", "0", " ", "[", "m", ";", "\\", "\n", "\r", "\t"), maxLength: 30 });
      // Raw bytes bring invalid and truncated UTF-8 sequences, which a plain chunk may follow.
      const pieces = fc.array(
        fc.oneof(plainText.map((text) => encoder.encode(text)), richText.map((text) => encoder.encode(text)),
          fc.uint8Array({ maxLength: 4 })),
        { maxLength: 8 },
      );
      fc.assert(
        fc.property(pieces, fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
          const bytes = Buffer.concat(parts);
          // Chunk boundaries between the parts and at random bytes: inside multi-byte characters and escapes too.
          let offset = 0;
          const boundaries = parts.map((part) => (offset += part.length));
          const points = [...new Set([...boundaries, ...cuts.map((cut) => cut % (bytes.length + 1))])].sort((a, b) => a - b);
          const chunks: Uint8Array[] = [];
          let start = 0;
          for (const point of [...points, bytes.length]) {
            chunks.push(bytes.subarray(start, point));
            start = point;
          }
          // A string chunk always takes the general path: the whole stream decoded at once is the reference.
          expect(sanitizeChunks(chunks)).toBe(sanitize(new TextDecoder().decode(bytes)));
        }),
        { numRuns: 3000 },
      );
    });

    it("never outputs ESC, an unescaped control character, a format character or a lone surrogate", () => {
      fc.assert(
        fc.property(fc.oneof(richText, fc.string({ unit: "binary" })), (text) => {
          expect(sanitize(text)).not.toMatch(FORBIDDEN);
        }),
        { numRuns: 2000 },
      );
    });

    it("is the identity on text without special characters", () => {
      fc.assert(
        fc.property(fc.string({ unit: "grapheme" }), (text) => {
          fc.pre(!FORBIDDEN.test(text));
          expect(sanitize(text)).toBe(text);
        }),
      );
    });
  });

  it("sanitizes a 50 MB flood in 64 KB chunks", () => {
    const sanitizer = createOutputSanitizer();
    const line = encoder.encode(`${ESC}[32mok${ESC}[0m line 😀\n`);
    const chunk = new Uint8Array(64 * 1024);
    for (let offset = 0; offset < chunk.length; offset += line.length) {
      chunk.set(line.subarray(0, Math.min(line.length, chunk.length - offset)), offset);
    }
    let chars = 0;
    let last = "";
    for (let written = 0; written < 50 * 1024 * 1024; written += chunk.length) {
      last = sanitizer.write(chunk);
      chars += last.length;
    }
    chars += sanitizer.end().length;
    expect(chars).toBeGreaterThan(0);
    expect(last).not.toMatch(FORBIDDEN);
  });
});
