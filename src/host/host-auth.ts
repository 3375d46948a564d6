// Token checks in constant time: both sides are hashed first, so neither the token's length nor its first wrong
// character shows in the time an answer takes.
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

export function tokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== "string") return false;
  return timingSafeEqual(digest(given), digest(expected));
}
