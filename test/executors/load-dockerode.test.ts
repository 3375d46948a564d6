// dockerode is an optional peer dependency: without it, a container command fails with the install hint.
import { expect, it, vi } from "vitest";
import { createContainerExecutor, ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";

vi.mock("dockerode", () => {
  throw new Error("Cannot find package 'dockerode'");
});

it("fails with `npm i dockerode` when the dockerode package is not installed, running nothing", async () => {
  const executor = createContainerExecutor({ image: "alpine:3.20", docker: { socketPath: "/nonexistent.sock" } });
  const request = { command: "true", cwd: "/", defaultCwd: "/", env: {}, envOverrides: {}, pty: false, elevated: false, scopeKey: "s" };
  const error = await executor.spawn(request).catch((e: unknown) => e);
  expect(ExecProcessError.is(error, "container-module-missing")).toBe(true);
  expect((error as Error).message).toBe(messages.CONTAINER_MODULE_MISSING);
  await executor.dispose();
});
