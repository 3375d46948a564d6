// The PTY fallback warning (PTY-05) names why the terminal could not start in one line: no stack, no host paths.
import { describe, expect, it } from "vitest";
import { ptyFallbackWarning } from "../../src/engine/messages.js";
import type { ChildSink } from "../../src/engine/spawn/child-handle.js";
import { describePtyFailure, spawnWithPty } from "../../src/engine/spawn/pty-backend.js";

/** What node-pty 1.1.0 throws from `lib/utils.js` when its native module is missing (captured from a real run). */
function nativeModuleMissing(): Error {
  const requireStack = ["/home/user/app/node_modules/node-pty/lib/utils.js", "/home/user/app/node_modules/node-pty/lib/index.js"];
  return Object.assign(
    new Error(
      "Failed to load native module: pty.node, checked: build/Release, build/Debug, prebuilds/linux-x64: " +
        "Error: Cannot find module './prebuilds/linux-x64//pty.node'\nRequire stack:\n" +
        requireStack.map((path) => `- ${path}`).join("\n"),
    ),
    { code: "MODULE_NOT_FOUND", requireStack },
  );
}

describe("describePtyFailure", () => {
  it.each([
    [
      "node-pty's native module is missing (require stack, node_modules paths)",
      nativeModuleMissing(),
      "Failed to load native module: pty.node, checked: build/Release, build/Debug, prebuilds/linux-x64: Error: Cannot find module 'pty.node'",
    ],
    [
      "the package is not installed (ESM import with the importing file)",
      Object.assign(new Error("Cannot find package 'node-pty' imported from /home/user/app/dist/engine/spawn/pty-backend.js"), {
        code: "ERR_MODULE_NOT_FOUND",
      }),
      "Cannot find package 'node-pty'",
    ],
    ["a file URL", new Error("Cannot load file:///home/user/app/node_modules/node-pty/lib/index.js (bad ELF)"), "Cannot load index.js (bad ELF)"],
    ["a thrown string", "forkpty(3) failed.", "forkpty(3) failed."],
    ["an empty error", new Error(""), "unknown error"],
  ])("%s", (_case, error, expected) => {
    expect(describePtyFailure(error)).toBe(expected);
  });

  it("gives the pinned PTY-05 warning one clean line", () => {
    const warning = ptyFallbackWarning(describePtyFailure(nativeModuleMissing()), "vim notes.txt");
    expect(warning).toBe(
      "Warning: PTY spawn failed (Failed to load native module: pty.node, checked: build/Release, build/Debug, " +
        "prebuilds/linux-x64: Error: Cannot find module 'pty.node'); retrying without PTY for `vim notes.txt`.",
    );
    expect(warning).not.toMatch(/\n|node_modules|\/home\/|Require stack/);
  });
});

describe("a terminal session's quirks stay inside the PTY backend", () => {
  it("answers a cursor-position request itself, keeps it out of the output, and tracks the cursor-key mode (INPUT-16, KEYS-12)", async () => {
    const chunks: string[] = [];
    let done!: (code: number | null) => void;
    const completed = new Promise<number | null>((resolve) => (done = resolve));
    const sink: ChildSink = {
      onOutput: (_stream, chunk) => void chunks.push(String(chunk)),
      onExit: () => undefined,
      onComplete: (code) => done(code),
    };
    // The program asks where the cursor is, reads the six-byte answer raw (no echo, no line buffering), prints it in octal.
    const command = "stty -echo -icanon; printf 'a\\033[?1h\\033[6nb'; dd bs=1 count=6 2>/dev/null | od -An -c";
    const handle = await spawnWithPty({ shell: "/bin/sh", args: ["-c"], command, cwd: process.cwd(), env: { PATH: process.env["PATH"] ?? "" } }, sink);
    try {
      expect(handle.cursorKeyMode).toBe("unknown");
      expect(await completed).toBe(0);
      const output = chunks.join("");
      expect(output).not.toContain("\x1b[6n");
      expect(output).toContain("a\x1b[?1hb");
      expect(output.replace(/\s+/g, " ")).toContain("033 [ 1 ; 1 R");
      expect(handle.cursorKeyMode).toBe("application");
    } finally {
      handle.signal?.("SIGKILL");
      handle.release();
    }
  }, 30_000);
});
