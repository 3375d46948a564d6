// The wrapper's report read back: the exact code or signal from the exec's exit code and the status line.
import { expect, it } from "vitest";
import { killCommand, parseOutcome, statusCommand, statusPath, wrapperCommand } from "../../src/executors/container/command-wrapper.js";

it("takes a code up to 128 as it is, without a status line", () => {
  expect(parseOutcome(0, undefined, 0)).toEqual({ code: 0, signal: null, outOfMemory: false });
  expect(parseOutcome(128, "0\n", 0)).toEqual({ code: 128, signal: null, outOfMemory: false });
});

it("tells a signal from a code over 128 by the shell's report or the wrapper's trap", () => {
  expect(parseOutcome(137, "0\n137 0 0\n", 0)).toEqual({ code: 137, signal: null, outOfMemory: false });
  expect(parseOutcome(137, "0\n137 0 1\n", 0)).toEqual({ code: null, signal: "SIGKILL", outOfMemory: false });
  expect(parseOutcome(130, "0\n130 2 0\n", 0)).toEqual({ code: null, signal: "SIGINT", outOfMemory: false });
  expect(parseOutcome(143, "0\n143 2 0\n", 0)).toEqual({ code: 143, signal: null, outOfMemory: false });
});

it("takes out of memory from the kernel's counter against the frame's, for any failing command, never from the file", () => {
  expect(parseOutcome(137, "3\n137 0 1\n", 2)).toEqual({ code: null, signal: "SIGKILL", outOfMemory: true });
  expect(parseOutcome(137, "3\n137 0 0\n", 2)).toEqual({ code: null, signal: "SIGKILL", outOfMemory: true }); // a pipeline's member
  expect(parseOutcome(1, "1\n", 0)).toEqual({ code: null, signal: "SIGKILL", outOfMemory: true });
  expect(parseOutcome(0, undefined, 0)).toEqual({ code: 0, signal: null, outOfMemory: false });
  expect(parseOutcome(137, "2\n137 0 1 9\n", 2)).toEqual({ code: null, signal: "SIGKILL", outOfMemory: false }); // an old or forged line
  expect(parseOutcome(137, "x\n137 0 1\n", 0)).toEqual({ code: null, signal: "SIGKILL", outOfMemory: false });
});

it("takes a code over 128 without a status line, or with one of another code, as the signal that killed the wrapper", () => {
  expect(parseOutcome(137, "0\n", 0)).toEqual({ code: null, signal: "SIGKILL", outOfMemory: false });
  expect(parseOutcome(137, "0\n130 2 0\n", 0)).toEqual({ code: null, signal: "SIGKILL", outOfMemory: false });
  expect(parseOutcome(255, "", 0)).toEqual({ code: 255, signal: null, outOfMemory: false });
  expect(parseOutcome(null, undefined)).toEqual({ code: null, signal: null, outOfMemory: false });
});

it("passes the command, the workdir and the marker as arguments, never inside the script", () => {
  const command = "echo '$1' \"; rm -rf /\"";
  const argv = wrapperCommand("abc", "/workspace/a b", true, command);
  expect(argv.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
  expect(argv.slice(3)).toEqual(["sh", "abc", "/workspace/a b", "pty", command]);
  expect(killCommand(40_042, "SIGTERM").slice(3)).toEqual(["sh", "40042", "TERM"]);
  expect(statusCommand("abc").at(-1)).toBe(statusPath("abc"));
});
