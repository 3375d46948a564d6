import { describe, expect, it, vi } from "vitest";
import { createSessionId } from "../../src/engine/session-id.js";

const ID_PATTERN = /^[a-z]+(-[a-z0-9]+)+$/;
const TWO_WORDS = /^[a-z]+-[a-z]+$/;
const THREE_WORDS = /^[a-z]+-[a-z]+-[a-z]+$/;
const COLLISION_SUFFIX = /-([0-9]+)$/;
const RANDOM_SUFFIX = /^[a-z]+-[a-z]+-[a-z]+-[a-z0-9]{3}$/;

describe("createSessionId (ID-01…ID-03)", () => {
  it("returns a two-word lower-case slug when nothing is taken", () => {
    for (let i = 0; i < 50; i += 1) expect(createSessionId(() => false)).toMatch(TWO_WORDS);
  });

  it("returns 200 distinct ids matching ID-01 while they stay taken", () => {
    const taken = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const id = createSessionId((candidate) => taken.has(candidate));
      expect(id).toMatch(ID_PATTERN);
      expect(taken.has(id)).toBe(false);
      taken.add(id);
    }
    expect(taken.size).toBe(200);
  });

  it("adds a collision suffix from -2 when every two-word base is taken", () => {
    const id = createSessionId((candidate) => TWO_WORDS.test(candidate));
    expect(id).toMatch(/^[a-z]+-[a-z]+-2$/);
  });

  it("tries -2 up to -12 for a taken base before drawing another base", () => {
    const seen: string[] = [];
    const id = createSessionId((candidate) => {
      seen.push(candidate);
      return !candidate.endsWith("-12");
    });
    expect(id).toMatch(/^[a-z]+-[a-z]+-12$/);
    expect(seen.slice(1).map((c) => COLLISION_SUFFIX.exec(c)?.[1])).toEqual(
      ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"],
    );
  });

  it("falls through to three-word bases when every two-word id is taken", () => {
    const id = createSessionId((candidate) => !THREE_WORDS.test(candidate));
    expect(id).toMatch(THREE_WORDS);
  });

  it("falls through to a three-character random suffix when every word id is taken", () => {
    const id = createSessionId((candidate) => !RANDOM_SUFFIX.test(candidate));
    expect(id).toMatch(RANDOM_SUFFIX);
  });

  it("appends the base-36 time after 12 × 12 tries per word count and a taken random suffix", () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    try {
      const isTaken = vi.fn((_candidate: string) => true);
      const id = createSessionId(isTaken);
      expect(isTaken).toHaveBeenCalledTimes(2 * 12 * 12 + 1);
      expect(id).toMatch(ID_PATTERN);
      expect(id).toMatch(new RegExp(`^[a-z]+-[a-z]+-[a-z]+-[a-z0-9]{3}-${(1_700_000_000_000).toString(36)}$`));
    } finally {
      vi.useRealTimers();
    }
  });
});
