// Human-readable session ids, unique within an engine (ID-01…ID-03).

import { randomInt } from "node:crypto";
import { ID_BASE_TRIES, ID_MAX_COLLISION_SUFFIX, ID_RANDOM_SUFFIX_CHARS } from "./settings.js";

// Reference word lists of SPEC §6.4 (informative; only the id shape is normative).
const ADJECTIVES = (
  "amber briny brisk calm clear cool crisp dawn delta ember faint fast fresh gentle glow good grand keen kind " +
  "lucky marine mellow mild neat nimble nova oceanic plaid quick quiet rapid salty sharp swift tender tidal tidy " +
  "tide vivid warm wild young"
).split(" ");
const NOUNS = (
  "atlas basil bison bloom breeze canyon cedar claw cloud comet coral cove crest crustacean daisy dune ember " +
  "falcon fjord forest glade gulf harbor haven kelp lagoon lobster meadow mist nudibranch nexus ocean orbit otter " +
  "pine prairie reef ridge river rook sable sage seaslug shell shoal shore slug summit tidepool trail valley wharf " +
  "willow zephyr"
).split(" ");
const SUFFIX_ALPHABET = [..."abcdefghijklmnopqrstuvwxyz0123456789"];
const FIRST_COLLISION_SUFFIX = 2;

// randomInt is cryptographically secure (ID-03).
const pick = (words: readonly string[]): string => words[randomInt(words.length)] ?? "";

const twoWordBase = (): string => `${pick(ADJECTIVES)}-${pick(NOUNS)}`;
const threeWordBase = (): string => `${twoWordBase()}-${pick(NOUNS)}`;

function randomSuffix(): string {
  let suffix = "";
  for (let i = 0; i < ID_RANDOM_SUFFIX_CHARS; i += 1) suffix += pick(SUFFIX_ALPHABET);
  return suffix;
}

// ID-03: up to 12 random bases; a taken base is retried as `<base>-2` … `<base>-12`.
function findFreeId(createBase: () => string, isTaken: (id: string) => boolean): string | undefined {
  for (let attempt = 0; attempt < ID_BASE_TRIES; attempt += 1) {
    const base = createBase();
    if (!isTaken(base)) return base;
    for (let n = FIRST_COLLISION_SUFFIX; n <= ID_MAX_COLLISION_SUFFIX; n += 1) {
      const candidate = `${base}-${n}`;
      if (!isTaken(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Returns a new id matching `^[a-z]+(-[a-z0-9]+)+$` that `isTaken` does not reject (ID-01…ID-03). */
export function createSessionId(isTaken: (id: string) => boolean): string {
  const found = findFreeId(twoWordBase, isTaken) ?? findFreeId(threeWordBase, isTaken);
  if (found !== undefined) return found;
  const fallback = `${threeWordBase()}-${randomSuffix()}`;
  return isTaken(fallback) ? `${fallback}-${Date.now().toString(36)}` : fallback;
}
