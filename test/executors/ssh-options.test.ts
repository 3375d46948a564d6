// createSshExecutor's options: defaults, and values refused at creation with the option named (issue 20).
import { describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/engine/errors.js";
import * as messages from "../../src/engine/messages.js";
import { normalizeSshOptions, type SshExecutorOptions } from "../../src/executors/ssh/ssh-options.js";

const node = { host: "10.0.0.7", username: "ci", password: "x", acceptAnyHostKey: true };

function errorOf(options: Partial<SshExecutorOptions>): ExecProcessError | undefined {
  try {
    normalizeSshOptions({ nodes: { build: node }, ...options });
    return undefined;
  } catch (error) {
    return error as ExecProcessError;
  }
}

describe("normalizeSshOptions", () => {
  it("fills the defaults: no forwarded variables, sshd's 10 sessions per connection, 4 connections", () => {
    expect(normalizeSshOptions({ nodes: { build: node } })).toMatchObject({
      forwardEnv: [], maxSessionsPerConnection: 10, maxConnections: 4, shell: "/bin/sh",
    });
  });

  it.each<[Partial<SshExecutorOptions>, string]>([
    [{ maxSessionsPerConnection: 1 }, messages.invalidOption("createSshExecutor", "maxSessionsPerConnection", "1", "an integer of at least 2")],
    [{ maxSessionsPerConnection: 2.5 }, messages.invalidOption("createSshExecutor", "maxSessionsPerConnection", "2.5", "an integer of at least 2")],
    [{ maxConnections: 0 }, messages.invalidOption("createSshExecutor", "maxConnections", "0", "an integer of at least 1")],
    [{ forwardEnv: ["GOOD", "NOT-PORTABLE"] }, messages.invalidOption("createSshExecutor", "forwardEnv", "NOT-PORTABLE", "variable names like MY_VAR")],
  ])("refuses %j, naming the option", (options, text) => {
    const error = errorOf(options);
    expect(error?.data).toMatchObject({ code: "invalid-option", owner: "createSshExecutor" });
    expect(error?.message).toBe(text);
  });

  it("refuses a hostKey that holds no key, naming hostKey and quoting at most ~100 characters of it", () => {
    const error = errorOf({ nodes: { build: { ...node, acceptAnyHostKey: false, hostKey: `x${"y".repeat(300)}` } } });
    expect(error?.data).toMatchObject({ code: "node-misconfigured", node: "build", invalid: "hostKey" });
    expect(error?.message).toContain('SSH node "build": hostKey "xyyy');
    expect(error?.message.length).toBeLessThan(300);
  });
});
