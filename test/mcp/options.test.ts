// mcp/options.ts: the server's flags and environment, normalized once; every unusable value is an
// invalid-option error that names the flag, what it expects and what it got.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import { readSshConfig } from "../../mcp/executors.js";
import {
  DEFAULT_HTTP_PORT, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TIMEOUT_SECONDS, MAX_REQUEST_BYTES, parseCommand, USAGE, type ServerOptions,
} from "../../mcp/options.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

function options(argv: string[], env: NodeJS.ProcessEnv = {}): ServerOptions {
  const command = parseCommand(argv, env, dir);
  if (command.kind !== "serve") throw new Error(`expected serve, got ${command.kind}`);
  return command.options;
}

function rejection(argv: string[], env: NodeJS.ProcessEnv = {}): ExecProcessError {
  try {
    parseCommand(argv, env, dir);
  } catch (error) {
    expect(ExecProcessError.is(error, "invalid-option")).toBe(true);
    return error as ExecProcessError;
  }
  throw new Error("parseCommand accepted the arguments");
}

describe("parseCommand", () => {
  it("serves stdio from the current directory with the process tool and exit events in results by default", () => {
    expect(options([])).toEqual({
      http: undefined, cwd: dir, config: {}, sandbox: undefined, allowedRoots: [], sshConfig: undefined,
      allowElevated: false, processTool: true, eventsInResults: true, watchTool: false, dedupeWindowMs: 0,
    });
  });

  it("offers the watch tool only with --watch-tool (issue 34)", () => {
    expect(options(["--watch-tool"]).watchTool).toBe(true);
  });

  it("takes the retry dedupe window in ms with --dedupe-window-ms, and refuses a value out of range", () => {
    expect(options(["--dedupe-window-ms", "5000"]).dedupeWindowMs).toBe(5000);
    expect(() => options(["--dedupe-window-ms", "-1"])).toThrow("--dedupe-window-ms");
    expect(() => options(["--dedupe-window-ms", "600001"])).toThrow("--dedupe-window-ms");
  });

  it.each([
    ["--http alone takes the default port", ["--http"], DEFAULT_HTTP_PORT],
    ["--http 0 asks for a free port", ["--http", "0"], 0],
    ["--http before another flag keeps that flag", ["--http", "--cwd", "sub"], DEFAULT_HTTP_PORT],
  ])("%s", (_title, argv, port) => {
    expect(options(argv).http).toEqual({
      port, host: "127.0.0.1", token: undefined, tokenFile: undefined, noAuth: false, allowedOrigins: [],
      sessionTimeoutMs: DEFAULT_SESSION_TIMEOUT_SECONDS * 1000, maxSessions: DEFAULT_MAX_SESSIONS,
    });
  });

  it("has the documented HTTP defaults (issue 32): 32 sessions, 300 s idle, 4 MiB per message, in the help text too", () => {
    expect([DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TIMEOUT_SECONDS, MAX_REQUEST_BYTES]).toEqual([32, 300, 4_194_304]);
    expect(USAGE).toContain("--max-sessions <n>        refuse a new HTTP session while n are open (default 32)");
    expect(USAGE).toContain("(default 300: a client that left frees its processes soon)");
    expect(USAGE).toContain("--no-auth                 serve HTTP without a token (loopback only)");
  });

  it("reads --max-sessions, --no-auth and --token-file (resolved against the current directory)", () => {
    expect(options(["--http", "--max-sessions", "3", "--no-auth"]).http).toMatchObject({ maxSessions: 3, noAuth: true, token: undefined });
    expect(options(["--http", "--token-file", "run/token"]).http).toMatchObject({ tokenFile: join(dir, "run/token"), noAuth: false });
  });

  it("takes the token from EXEC_PROCESS_MCP_TOKEN, normalizes origins and resolves paths against the current directory", () => {
    file("config.json", '{"tools": {"exec": {"backgroundMs": 5000}}}');
    const parsed = options(["--http", "9000", "--allow-origin", "HTTP://LocalHost:5173/app", "--cwd", "work", "--config", "config.json",
      "--session-timeout", "60"], { EXEC_PROCESS_MCP_TOKEN: "secret" });
    expect(parsed.http).toEqual({
      port: 9000, host: "127.0.0.1", token: "secret", tokenFile: undefined, noAuth: false, allowedOrigins: ["http://localhost:5173"],
      sessionTimeoutMs: 60_000, maxSessions: DEFAULT_MAX_SESSIONS,
    });
    expect(parsed.cwd).toBe(join(dir, "work"));
    expect(parsed.config).toEqual({ tools: { exec: { backgroundMs: 5000 } } });
  });

  it.each([
    ["a port out of range", ["--http", "70000"], '--http expects a whole number from 0 to 65535 (got "70000").'],
    ["--no-auth on a non-loopback address", ["--http", "--host", "0.0.0.0", "--no-auth"],
      '--no-auth expects a loopback --host (without a token, anyone who reaches the address could run commands as this user) (got "0.0.0.0").'],
    ["--no-auth with --token", ["--http", "--no-auth", "--token", "t"],
      '--no-auth expects no --token and no EXEC_PROCESS_MCP_TOKEN (it turns the token off) (got "--token").'],
    ["--token-file with --token", ["--http", "--token-file", "t.txt", "--token", "t"],
      '--token-file expects no --token, no EXEC_PROCESS_MCP_TOKEN and no --no-auth (the file receives a generated token) (got "--token").'],
    ["--token-file with --no-auth", ["--http", "--token-file", "t.txt", "--no-auth"],
      '--token-file expects no --token, no EXEC_PROCESS_MCP_TOKEN and no --no-auth (the file receives a generated token) (got "--no-auth").'],
    ["--max-sessions 0", ["--http", "--max-sessions", "0"], '--max-sessions expects a whole number from 1 to 10000 (got "0").'],
    ["an origin that is no URL", ["--http", "--allow-origin", "example.com"], '--allow-origin expects an origin such as http://localhost:5173 (got "example.com").'],
    ["a session timeout of 0", ["--http", "--session-timeout", "0"], '--session-timeout expects a whole number from 1 to 31536000 (got "0").'],
    ["a sandbox other than bwrap", ["--sandbox", "docker"], '--sandbox expects bwrap (got "docker").'],
    ["elevation with a sandbox", ["--sandbox", "bwrap", "--allow-elevated"],
      '--allow-elevated expects no --sandbox (elevated commands would run outside the sandbox) (got "--sandbox bwrap").'],
    ["--allowed-root without a sandbox", ["--allowed-root", "/srv"], '--allowed-root expects --sandbox bwrap (it limits sandboxed commands) (got "/srv").'],
    ["a missing config file", ["--config", "missing.json"], `--config expects a readable JSON file (got "${join(dir, "missing.json")}: ENOENT").`],
  ])("refuses %s, naming the flag", (_title, argv, text) => {
    expect(rejection(argv).message).toBe(text);
  });

  it("refuses a config file that is not one JSON object", () => {
    const list = file("list.json", "[1]");
    expect(rejection(["--config", "list.json"]).message).toBe(`--config expects a file holding one JSON object (got "${list}").`);
    file("broken.json", "{");
    expect(rejection(["--config", "broken.json"]).message).toMatch(/^--config expects a file holding one JSON object \(got ".*broken\.json: .+"\)\.$/);
  });

  it("resolves --allowed-root folders against the current directory", () => {
    expect(options(["--sandbox", "bwrap", "--allowed-root", "a", "--allowed-root", "/srv/b"]).allowedRoots).toEqual([join(dir, "a"), "/srv/b"]);
  });

  it("allows a non-loopback address with a token, given or generated at start", () => {
    expect(options(["--http", "--host", "0.0.0.0", "--token", "t"]).http).toMatchObject({ host: "0.0.0.0", token: "t" });
    expect(options(["--http", "--host", "0.0.0.0"]).http).toMatchObject({ host: "0.0.0.0", token: undefined, noAuth: false });
  });

  it("names the token variable, never the token, when --no-auth meets EXEC_PROCESS_MCP_TOKEN", () => {
    expect(rejection(["--http", "--no-auth"], { EXEC_PROCESS_MCP_TOKEN: "secret-value" }).message)
      .toBe('--no-auth expects no --token and no EXEC_PROCESS_MCP_TOKEN (it turns the token off) (got "EXEC_PROCESS_MCP_TOKEN").');
  });
});

describe("readSshConfig", () => {
  it("reads privateKeyPath beside the file and keeps the other node fields", () => {
    file("ci_key", "KEY TEXT");
    const nodes = file("nodes.json", JSON.stringify({ nodes: { build: { host: "h", username: "u", privateKeyPath: "ci_key", hostKey: "ssh-ed25519 AAAA" } }, shell: "/bin/bash" }));
    expect(readSshConfig(nodes)).toEqual({ nodes: { build: { host: "h", username: "u", privateKey: "KEY TEXT", hostKey: "ssh-ed25519 AAAA" } }, shell: "/bin/bash" });
  });

  it("refuses a file without nodes and a key file it cannot read, naming --ssh-config", () => {
    const empty = file("empty.json", "{}");
    expect(() => readSshConfig(empty)).toThrow(/^--ssh-config expects a JSON file such as/);
    const missingKey = file("missing-key.json", JSON.stringify({ nodes: { a: { host: "h", username: "u", privateKeyPath: "nope" } } }));
    expect(() => readSshConfig(missingKey)).toThrow(`--ssh-config expects a readable privateKeyPath for node "a" (got "${join(dir, "nope")}: ENOENT (in ${missingKey})").`);
  });
});
