// ssh2 is an optional peer dependency: without it, a node command fails with the install hint, spawning nothing.
import { expect, it, vi } from "vitest";
import { createSshExecutor } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";

vi.mock("ssh2", () => {
  throw new Error("Cannot find package 'ssh2'");
});

it("fails with `npm i ssh2` when the ssh2 package is not installed", async () => {
  const executor = createSshExecutor({
    nodes: { build: { host: "127.0.0.1", port: 1, username: "nobody", password: "x", acceptAnyHostKey: true } },
  });
  const request = { command: "true", cwd: "/", defaultCwd: "/", env: {}, envOverrides: {}, pty: false, elevated: false, scopeKey: "s" };
  await expect(executor.spawn(request)).rejects.toThrow(messages.SSH_MODULE_MISSING);
  await executor.dispose();
});
