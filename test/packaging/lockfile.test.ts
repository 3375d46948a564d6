// package-lock.json names every package's tarball (issue 36): without "resolved", `npm ci` first fetches the metadata
// of every package to find its tarball: with an empty cache, a third of the install's time and 40 % of its CPU. The
// repository's .npmrc keeps the addresses against a user config that omits them (omit-lockfile-registry-resolved).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../..", import.meta.url).pathname;

interface LockEntry { version?: string; resolved?: string; integrity?: string; link?: boolean }

const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, "utf8")) as { packages: Record<string, LockEntry> };

/** The registry tarball of a package, as npm writes it: the scope stays in the path, not in the file's name. */
function tarball(location: string, version: string): string {
  const name = location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);
  return `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${version}.tgz`;
}

describe("package-lock.json", () => {
  it("gives every installed package its registry tarball and integrity", () => {
    const entries = Object.entries(lock.packages).filter(([location]) => location !== "");
    expect(entries.length).toBeGreaterThan(100);
    const wrong = entries.filter(([location, entry]) =>
      entry.version === undefined || entry.integrity === undefined || entry.resolved !== tarball(location, entry.version));
    expect(wrong.map(([location, entry]) => `${location}: ${entry.resolved ?? "no resolved"}`)).toEqual([]);
  });

  it("is kept that way by the repository's .npmrc", () => {
    const settings = readFileSync(`${ROOT}.npmrc`, "utf8").split("\n").map((line) => line.trim());
    expect(settings).toContain("omit-lockfile-registry-resolved=false");
  });
});
