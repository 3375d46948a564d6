// src/engine/exec/workdir.ts: the working directory of a local command (EXEC-18 … EXEC-20, EXEC-23) and the one an
// executor is asked to use (EXEC-09).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveExecutorWorkdir, resolveWorkdir } from "../../src/engine/exec/workdir.js";

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "workdir-")));
  mkdirSync(join(root, "sub"));
  mkdirSync(join(root, "~"));
  writeFileSync(join(root, "file.txt"), "x");
  symlinkSync(join(root, "sub"), join(root, "link"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("resolveWorkdir", () => {
  it.each([["omitted", undefined], ["empty", ""], ["not a string", 42]])(
    "uses the default cwd when workdir is %s (EXEC-18)", (_label, workdir) => {
      expect(resolveWorkdir(workdir, root)).toEqual({ ok: true, cwd: root });
    });

  it("resolves a relative workdir against the default cwd (EXEC-19)", () => {
    expect(resolveWorkdir("sub", root)).toEqual({ ok: true, cwd: join(root, "sub") });
  });

  it("treats ~ as a literal relative path, never the home directory (EXEC-19)", () => {
    expect(resolveWorkdir("~", root)).toEqual({ ok: true, cwd: join(root, "~") });
  });

  it("reports the canonical real path of a directory reached through a symbolic link (EXEC-20)", () => {
    expect(resolveWorkdir(join(root, "link"), "/")).toEqual({ ok: true, cwd: join(root, "sub") });
  });

  it.each([
    ["a missing directory", "missing"],
    ["a file", "file.txt"],
    ["a whitespace-only value", "   "],
  ])("fails for %s and echoes the value as given (EXEC-19, EXEC-23)", (_label, workdir) => {
    expect(resolveWorkdir(workdir, root)).toEqual({ ok: false, requested: workdir });
  });

  it("resolves the root directory itself", () => {
    expect(resolveWorkdir("/", root)).toEqual({ ok: true, cwd: "/" });
    expect(resolveWorkdir(undefined, "/")).toEqual({ ok: true, cwd: "/" });
  });

  it("fails for a link to a file and for a dangling link, the way it fails for the file (EXEC-23)", () => {
    symlinkSync(join(root, "file.txt"), join(root, "file-link"));
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    expect(resolveWorkdir("file-link", root)).toEqual({ ok: false, requested: "file-link" });
    expect(resolveWorkdir("dangling", root)).toEqual({ ok: false, requested: "dangling" });
    expect(resolveWorkdir("file.txt/", root)).toEqual({ ok: false, requested: "file.txt/" });
  });

  it("echoes the default cwd when the default itself is unusable (EXEC-23)", () => {
    const gone = join(root, "gone");
    expect(resolveWorkdir(undefined, gone)).toEqual({ ok: false, requested: gone });
  });
});

describe("resolveExecutorWorkdir", () => {
  it("resolves a relative workdir against the default cwd without checking that it exists (EXEC-09)", () => {
    expect(resolveExecutorWorkdir("remote/dir", "/srv")).toBe("/srv/remote/dir");
    expect(resolveExecutorWorkdir("/abs/dir", "/srv")).toBe("/abs/dir");
  });

  it("uses the default cwd when workdir is omitted or empty (EXEC-18)", () => {
    expect(resolveExecutorWorkdir(undefined, "/srv")).toBe("/srv");
    expect(resolveExecutorWorkdir("", "/srv")).toBe("/srv");
  });
});
