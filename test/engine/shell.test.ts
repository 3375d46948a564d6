// src/engine/spawn/shell.ts: which shell runs a command and the arguments before the command text (EXEC-27, EXEC-28).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { selectShell, shellArgs } from "../../src/engine/spawn/shell.js";

let bin: string;
let bashOnly: string;
let empty: string;
beforeEach(() => {
  const make = (dir: string, name: string) => {
    writeFileSync(join(dir, name), "#!/bin/sh\n");
    chmodSync(join(dir, name), 0o755);
  };
  bin = mkdtempSync(join(tmpdir(), "shell-bin-"));
  make(bin, "sh");
  make(bin, "bash");
  writeFileSync(join(bin, "zsh"), "not executable"); // present but not executable: never chosen
  bashOnly = mkdtempSync(join(tmpdir(), "shell-bash-"));
  make(bashOnly, "bash");
  empty = mkdtempSync(join(tmpdir(), "shell-empty-"));
});
afterEach(() => {
  for (const dir of [bin, bashOnly, empty]) rmSync(dir, { recursive: true, force: true });
});

describe("selectShell (EXEC-27)", () => {
  it("uses SHELL when it is set to a usable shell, trimmed", () => {
    expect(selectShell({ SHELL: " /usr/bin/zsh ", PATH: bin })).toBe("/usr/bin/zsh");
  });

  it.each(["/bin/false", "/usr/sbin/nologin", "", "   "])("ignores SHELL=%j and looks up sh, then bash, on PATH", (shell) => {
    expect(selectShell({ SHELL: shell, PATH: bin })).toBe(join(bin, "sh"));
    expect(selectShell({ SHELL: shell, PATH: `${empty}:${bashOnly}` })).toBe(join(bashOnly, "bash"));
  });

  it("prefers bash, then sh, over fish, and keeps fish when neither is on PATH", () => {
    expect(selectShell({ SHELL: "/usr/bin/fish", PATH: bin })).toBe(join(bin, "bash"));
    expect(selectShell({ SHELL: "/usr/bin/fish", PATH: empty })).toBe("/usr/bin/fish");
  });

  it("falls back to /bin/sh when no shell is set and none is on PATH", () => {
    expect(selectShell({ PATH: empty })).toBe("/bin/sh");
    expect(selectShell({})).toBe("/bin/sh");
  });
});

describe("shellArgs (EXEC-28)", () => {
  it.each([
    ["/bin/bash", ["--noprofile", "--norc", "-c"]],
    ["/usr/bin/zsh", ["-f", "-c"]],
    ["/usr/bin/fish", ["--no-config", "-c"]],
    ["/bin/sh", ["-c"]],
    ["/bin/dash", ["-c"]],
  ])("places %s's arguments before the command text: %j", (shell, args) => {
    expect(shellArgs(shell)).toEqual(args);
  });
});
