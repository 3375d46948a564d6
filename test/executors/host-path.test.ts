// src/executors/sandbox/host-path.ts: what a host path names (real path, device, inode, directory or not), read
// without opening it for reading; and which paths lie within a folder.
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inspectHostPath, isWithin } from "../../src/executors/sandbox/host-path.js";
import { cleanUp, scratchDir } from "./helpers.js";

afterEach(cleanUp);

function identity(path: string): { dev: string; ino: string } {
  const stat = statSync(path, { bigint: true });
  return { dev: String(stat.dev), ino: String(stat.ino) };
}

describe("inspectHostPath", () => {
  it("gives a directory's real path, device and inode", async () => {
    const dir = scratchDir("host-path-");
    expect(await inspectHostPath(dir)).toEqual({ real: dir, ...identity(dir), isDirectory: true });
  });

  it("follows every symbolic link to what the path names", async () => {
    const dir = scratchDir("host-path-");
    mkdirSync(join(dir, "real"));
    symlinkSync(join(dir, "real"), join(dir, "link"));
    symlinkSync("link", join(dir, "link-to-link"));
    expect(await inspectHostPath(join(dir, "link-to-link"))).toEqual({ real: join(dir, "real"), ...identity(join(dir, "real")), isDirectory: true });
  });

  it("tells a file from a directory", async () => {
    const file = join(scratchDir("host-path-"), "file");
    writeFileSync(file, "x");
    expect(await inspectHostPath(file)).toEqual({ real: file, ...identity(file), isDirectory: false });
  });

  it("resolves a FIFO without waiting for a writer", async () => {
    const fifo = join(scratchDir("host-path-"), "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(await inspectHostPath(fifo)).toEqual({ real: fifo, ...identity(fifo), isDirectory: false });
  });

  it("gives undefined for a path that does not exist, a dangling link, or a path through a file", async () => {
    const dir = scratchDir("host-path-");
    symlinkSync(join(dir, "nowhere"), join(dir, "dangling"));
    writeFileSync(join(dir, "file"), "x");
    expect(await inspectHostPath(join(dir, "missing"))).toBeUndefined();
    expect(await inspectHostPath(join(dir, "dangling"))).toBeUndefined();
    expect(await inspectHostPath(join(dir, "file", "below"))).toBeUndefined();
  });
});

describe("isWithin", () => {
  it.each([
    ["/a/b", "/a", true],
    ["/a", "/a", true],
    ["/a/b/c", "/a", true],
    ["/a/..b", "/a", true],
    ["/x", "/", true],
    ["/", "/", true],
    ["/ab", "/a", false],
    ["/", "/a", false],
    ["/b", "/a", false],
    ["/a", "/a/b", false],
  ])("%s within %s: %s", (path, dir, within) => {
    expect(isWithin(path, dir)).toBe(within);
  });
});
