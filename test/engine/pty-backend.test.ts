// The PTY fallback warning (PTY-05) names why the terminal could not start in one line: no stack, no host paths.
import { describe, expect, it } from "vitest";
import { ptyFallbackWarning } from "../../src/engine/messages.js";
import { describePtyFailure } from "../../src/engine/spawn/pty-backend.js";

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
