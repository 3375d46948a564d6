// src/engine/messages.ts: every text SPEC.md pins, checked here against the SPEC's own wording. This is the one test
// file that writes those texts out: every other test imports them from messages.ts.
import { describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";

const G = "The command was terminated, but external side effects may already have completed. Verify the resulting state before retrying. Do not automatically rerun non-idempotent commands. Use a higher timeout only when the command is known to be safe to retry.";
const H = "If it should keep running, start it with exec background=true or yieldMs so OpenClaw can register a pollable process session. Do not rely on shell backgrounding with a trailing &.";

describe("exec texts", () => {
  it.each([
    ["EXEC-02", messages.MISSING_COMMAND, "Provide a command to start."],
    ["EXEC-07", messages.invalidHost("example.com"), 'Invalid exec host "example.com". Allowed values: auto, sandbox, gateway, node.'],
    ["EXEC-08", messages.hostUnavailable("node"), 'exec host "node" is not available: no executor is registered for it.'],
    ["EXEC-17 PATH", messages.PATH_FORBIDDEN, "Security Violation: Custom 'PATH' variable is forbidden during host execution."],
    ["EXEC-17 one key", messages.envKeyForbidden("LD_PRELOAD"),
      "Security Violation: Environment variable 'LD_PRELOAD' is forbidden during host execution."],
    ["EXEC-17 invalid", messages.envViolation([messages.invalidKeysPart(["BAD KEY"])], false),
      "Security Violation: invalid non-portable override keys: BAD KEY."],
    ["EXEC-17 with PATH", messages.envViolation([messages.blockedKeysPart(["IFS", "PATH"]), messages.invalidKeysPart(["1X"])], true),
      "Security Violation: Custom 'PATH' variable is forbidden during host execution (blocked override keys: IFS, PATH; invalid non-portable override keys: 1X)."],
    ["EXEC-23", messages.workdirUnavailable("~/x"),
      'workdir "~/x" is unavailable or not a directory: command was not executed. workdir is treated as a literal path; shell expansions such as "~" are not applied. Use an existing directory, omit an explicit workdir to use the default cwd, or update the configured default cwd.'],
    ["EXEC-40", messages.ABORTED, "Tool execution was aborted"],
    ["EXEC-43", messages.SYNC_MODE_WARNING, "Warning: continuation options are unavailable; running synchronously."],
    ["PTY-05", messages.ptyFallbackWarning("no pty", "vim"), "Warning: PTY spawn failed (no pty); retrying without PTY for `vim`."],
    ["KILL-15", messages.ENGINE_DISPOSED, "Session engine has been disposed."],
  ])("%s: %s", (_rule, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it("starts the elevation text with the pinned sentence and continues on a new line (EXEC-12)", () => {
    expect(messages.ELEVATION_UNAVAILABLE.startsWith("elevated is not available right now (runtime=direct).\n")).toBe(true);
    expect(messages.ELEVATION_UNAVAILABLE).toContain("allowElevated");
  });
});

describe("result texts", () => {
  it.each([
    ["RES-05", messages.NO_OUTPUT, "(no output)"],
    ["RES-06", messages.commandExitedWithCode(3), "(Command exited with code 3)"],
    ["RES-11", messages.COMMAND_NOT_FOUND, "Command not found"],
    ["RES-12", messages.COMMAND_NOT_EXECUTABLE, "Command not executable (permission denied)"],
    ["RES-14", messages.commandTimedOut(0.5), "Command timed out after 0.5 seconds."],
    ["RES-15", messages.TIMEOUT_GUIDANCE, G],
    ["RES-16", messages.BACKGROUND_HINT, H],
    ["RES-17", messages.abortedBySignal("SIGKILL"), "Command aborted by signal SIGKILL"],
    ["RES-18", messages.ABORTED_BEFORE_EXIT, "Command aborted before exit code was captured"],
    ["RES-22", messages.stillRunning("calm-brook", 42),
      "Command still running (session calm-brook, pid 42). Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up."],
    ["RES-22 no pid", messages.stillRunning("calm-brook", undefined),
      "Command still running (session calm-brook, pid n/a). Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up."],
    ["RES-23", messages.FOLLOW_UP, "Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up."],
    ["OUT-16 discarded", messages.DISCARDED_NOTE, "[earlier output was discarded at the retention cap and cannot be recovered]"],
    ["OUT-16 omitted", messages.OMITTED_NOTE,
      "[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output]"],
    ["OUT-16 omitted variant", messages.OMITTED_GONE_NOTE,
      "[earlier output is omitted from this poll; omitted output is no longer available through action=log]"],
  ])("%s: %s", (_rule, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it.each([
    [0, null, "code 0"], [null, "SIGTERM", "signal SIGTERM"], [1, "SIGKILL", "signal SIGKILL"], [null, null, "unknown exit code"],
  ])("labels exit code %s with signal %s as %s (RES-25)", (code, signal, label) => {
    expect(messages.exitLabel(code, signal)).toBe(label);
  });
});

describe("process texts", () => {
  it.each([
    ["PROC-02", messages.INVALID_ACTION,
      "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove"],
    ["PROC-03", messages.SESSION_ID_REQUIRED, "sessionId is required for this action."],
    ["PROC-07", messages.notBackgrounded("x"), "Session x is not backgrounded."],
    ["POLL-02", messages.noSession("x"), "No session found for x"],
    ["INPUT-04", messages.noActiveSession("x"), "No active session found for x"],
    ["PROC-10", messages.noFinishedSession("x"), "No finished session found for x"],
    ["INPUT-03", messages.stdinNotWritable("x"), "Session x stdin is not writable."],
    ["POLL-04", messages.NO_NEW_OUTPUT, "(no new output)"],
    ["POLL-04 running", messages.PROCESS_STILL_RUNNING, "Process still running."],
    ["POLL-15", messages.processExitedWith("code 4"), "Process exited with code 4."],
    ["KILL-06", messages.processStoppedByRequest("signal SIGTERM"), "Process stopped by request (signal SIGTERM)."],
    ["WAIT-05", messages.inputWaitHint("20s"),
      "\n\nNo new output for 20s; this session may be waiting for input. Use process write, send-keys, submit, or paste to provide input."],
    ["LOG-04", messages.logPagingHint(200, 201), "\n\n[showing last 200 of 201 lines; pass offset/limit to page]"],
    ["LOG-09 running", messages.LOG_EMPTY_RUNNING, "(no output yet)"],
    ["LOG-09 finished", messages.LOG_EMPTY_FINISHED, "(no output recorded)"],
    ["INPUT-08", messages.wroteBytes(4, "x", false), "Wrote 4 bytes to session x."],
    ["INPUT-09", messages.wroteBytes(4, "x", true), "Wrote 4 bytes to session x (stdin closed)."],
    ["INPUT-12", messages.submitted("x"), "Submitted session x (sent CR)."],
    ["INPUT-14", messages.pasted(12, "x"), "Pasted 12 chars to session x."],
    ["INPUT-15", messages.NO_PASTE_TEXT, "No paste text provided."],
    ["KEYS-04", messages.sentBytes(3, "x", []), "Sent 3 bytes to session x."],
    ["KEYS-04 warnings", messages.sentBytes(3, "x", ["w1", "w2"]), "Sent 3 bytes to session x.\nWarnings:\n- w1\n- w2"],
    ["KEYS-05", messages.NO_KEY_DATA, "No key data provided."],
    ["KILL-03", messages.terminationRequested("x"), "Termination requested for session x."],
    ["KILL-05", messages.unableToTerminate("x"),
      "Unable to terminate session x: no active supervisor cancellation handle. Use process poll to check whether it is already exiting."],
    ["PROC-12 no handle", messages.unableToRemove("x"),
      "Unable to remove session x: no active supervisor cancellation handle. Use process poll to check whether it is already exiting."],
    ["PROC-09", messages.cleared("x"), "Cleared session x."],
    ["PROC-12", messages.removedRunning("x"), "Removed session x (termination requested)."],
    ["PROC-13", messages.removedFinished("x"), "Removed session x."],
    ["LIST-07", messages.NO_SESSIONS, "No running or recent sessions."],
  ])("%s: %s", (_rule, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe("exit events (NOTIFY-07, NOTIFY-09)", () => {
  it.each([
    ["completed", "code 0", "start done", false, "Exec completed (abcd1234, code 0) :: start done"],
    ["completed", "code 4", "", false, "Exec completed (abcd1234, code 4)"],
    ["failed", "signal SIGKILL", "", false, "Exec failed (abcd1234, signal SIGKILL)"],
    ["failed", "signal SIGTERM", "tick", true, `Exec failed (abcd1234, signal SIGTERM) :: tick\n\n${G}`],
  ])("writes a %s event with %s, snippet %j and timeout %s", (status, label, snippet, timedOut, expected) => {
    expect(messages.exitEvent(status, "abcd1234", label, snippet, timedOut)).toBe(expected);
  });
});

describe("texts of our own", () => {
  const ours = [
    messages.nulByteIn("command", 3), messages.argumentTooLarge("command", 200_000, 131_072),
    messages.argumentsTooLarge(7_000_000, 6_291_456), messages.ptyInputQueueFull(1024), messages.cursorModeUnknown("x"),
    messages.sandboxWorkdirMissing("/srv"), messages.SSH_MODULE_MISSING, messages.unknownNode("db", ["build"]),
    messages.sandboxWorkdirOutside("/", ["/srv/app"]), messages.invalidOption("createSandboxExecutor", "tmpSizeBytes", "0", "a whole number of bytes, at least 4096"),
    messages.sandboxSetupFailed("bubblewrap ended (exit code 1) before the command started"),
    ...(["missing", "symlink", "relative-target", "target-unavailable", "covers-control-dir", "changed"] as const)
      .map((problem) => messages.sandboxMountRefused("binds[0].source", "/srv/cache", problem)),
  ];

  it.each(ours)("names the problem and the fix without Node internals, paths of ours or stack traces: %s", (text) => {
    expect(text).not.toMatch(/ERR_[A-Z_]+|node:|\.[cm]?js\b|\n\s+at /);
    expect(text.endsWith(".")).toBe(true);
  });

  it("quotes at most 100 characters of a path in a sandbox text", () => {
    const long = `/srv/${"x".repeat(300)}`;
    expect(messages.sandboxWorkdirOutside(long, [long])).toContain(`"${long.slice(0, 80)}… (305 chars)"`);
    expect(messages.sandboxMountRefused("writable[0]", long, "symlink")).toContain(`"${long.slice(0, 80)}… (305 chars)" goes through`);
    expect(messages.sandboxWorkdirMissing(long)).not.toContain(long);
  });

  it("lists the known nodes, or says there are none, when a node is unknown", () => {
    expect(messages.unknownNode("db", ["build", "test"])).toBe('Unknown node "db": known nodes are "build", "test".');
    expect(messages.unknownNode(undefined, [])).toBe('exec host "node" needs the node parameter: known nodes are (none).');
  });
});

describe("inputs echoed in texts (issue 20)", () => {
  it.each([
    ["empty", ""],
    ["a session id", "calm-brook"],
    ["100 characters", "a".repeat(100)],
  ])("quotes an input of at most 100 characters unchanged: %s", (_what, input) => {
    expect(messages.quoteInput(input)).toBe(input);
  });

  it.each([
    [101, `${"a".repeat(80)}… (101 chars)`],
    [1_048_576, `${"a".repeat(80)}… (1048576 chars)`],
  ])("quotes an input of %i characters by its first 80, an ellipsis and its length", (length, quoted) => {
    expect(messages.quoteInput("a".repeat(length))).toBe(quoted);
  });

  it("never cuts a surrogate pair in half", () => {
    const quoted = messages.quoteInput(`${"a".repeat(79)}😀${"b".repeat(100)}`);
    expect(quoted).toBe(`${"a".repeat(79)}… (181 chars)`);
  });

  it("lists at most 10 inputs and says how many more there are", () => {
    const keys = Array.from({ length: 12 }, (_, index) => `K${index}`);
    expect(messages.quoteInputs(keys.slice(0, 10), ", ")).toBe(keys.slice(0, 10).join(", "));
    expect(messages.quoteInputs(keys, ", ")).toBe(`${keys.slice(0, 10).join(", ")}, … (2 more)`);
  });

  it("keeps every pinned text byte-identical for an input of 100 characters and shortens a longer one", () => {
    const id = "x".repeat(100);
    expect(messages.noSession(id)).toBe(`No session found for ${id}`);
    expect(messages.noSession(`${id}y`)).toBe(`No session found for ${"x".repeat(80)}… (101 chars)`);
    expect(messages.workdirUnavailable(`/${"d".repeat(65_535)}`))
      .toBe(messages.workdirUnavailable("").replace('""', `"/${"d".repeat(79)}… (65536 chars)"`));
  });

  it("lists at most 10 send-keys warnings, each quoting its entry", () => {
    const warnings = Array.from({ length: 1000 }, () => messages.invalidHexByte("z".repeat(1000)));
    const text = messages.sentBytes(1, "x", warnings);
    expect(text.split("\n")).toHaveLength(2 + 10 + 1);
    expect(text.endsWith("\n- … (990 more warnings)")).toBe(true);
    expect(warnings[0]).toBe(`Invalid hex byte: ${"z".repeat(80)}… (1000 chars)`);
  });
});
