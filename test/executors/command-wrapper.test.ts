// The wrapper's report read back: the exact code or signal from the exec's exit code and the status line.
import { expect, it } from "vitest";
import { killCommand, parseOutcome, statusCommand, statusPath, wrapperCommand } from "../../src/executors/container/command-wrapper.js";

it("takes a code up to 128 as it is, without a status line", () => {
  expect(parseOutcome(0, undefined)).toEqual({ code: 0, signal: null, outOfMemory: false });
  expect(parseOutcome(128, undefined)).toEqual({ code: 128, signal: null, outOfMemory: false });
});

it("tells a signal from a code over 128 by the shell's report or the wrapper's trap", () => {
  expect(parseOutcome(137, "137 0 0 0\n")).toEqual({ code: 137, signal: null, outOfMemory: false });
  expect(parseOutcome(137, "137 0 1 0\n")).toEqual({ code: null, signal: "SIGKILL", outOfMemory: false });
  expect(parseOutcome(130, "130 2 0 0\n")).toEqual({ code: null, signal: "SIGINT", outOfMemory: false });
  expect(parseOutcome(143, "143 2 0 0\n")).toEqual({ code: 143, signal: null, outOfMemory: false });
  expect(parseOutcome(137, "137 0 1 1\n")).toEqual({ code: null, signal: "SIGKILL", outOfMemory: true });
});

it("takes a code over 128 without a status line as the signal that killed the wrapper itself", () => {
  expect(parseOutcome(137, "")).toEqual({ code: null, signal: "SIGKILL", outOfMemory: false });
  expect(parseOutcome(255, "")).toEqual({ code: 255, signal: null, outOfMemory: false });
  expect(parseOutcome(null, undefined)).toEqual({ code: null, signal: null, outOfMemory: false });
});

it("passes the command, the workdir and the marker as arguments, never inside the script", () => {
  const command = "echo '$1' \"; rm -rf /\"";
  const argv = wrapperCommand("abc", "/workspace/a b", true, command);
  expect(argv.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
  expect(argv.slice(3)).toEqual(["sh", "abc", "/workspace/a b", "pty", command]);
  expect(killCommand(42, "SIGTERM", "m1").slice(3)).toEqual(["sh", "42", "TERM", "m1"]);
  expect(statusCommand("abc").at(-1)).toBe(statusPath("abc"));
});
