// A workdir maps inside the workspace mount; one outside it (symbolic links resolved) is refused.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import { containerWorkdir, workspaceRoot } from "../../src/executors/container/workspace-path.js";
import { cleanUp, scratchDir } from "./helpers.js";

afterEach(cleanUp);

it("maps the root and its subdirectories under the mount", async () => {
  const root = await workspaceRoot(scratchDir("ws-"), true);
  mkdirSync(join(root, "a/b"), { recursive: true });
  const mapping = { root, mount: "/workspace", local: true };
  expect(await containerWorkdir(root, root, mapping)).toBe("/workspace");
  expect(await containerWorkdir(join(root, "a/b"), root, mapping)).toBe("/workspace/a/b");
});

it("refuses a path outside, also through a symbolic link, and a missing one", async () => {
  const root = await workspaceRoot(scratchDir("ws-"), true);
  symlinkSync("/etc", join(root, "link"));
  const mapping = { root, mount: "/workspace", local: true };
  for (const cwd of ["/etc", join(root, ".."), join(root, "link")]) {
    const error = await containerWorkdir(cwd, root, mapping).catch((e: unknown) => e);
    expect(ExecProcessError.is(error, "container-workdir-outside"), cwd).toBe(true);
  }
  expect(ExecProcessError.is(await containerWorkdir(join(root, "nope"), root, mapping).catch((e: unknown) => e), "sandbox-workdir-missing")).toBe(true);
});

it("checks paths of an engine elsewhere as written, and allows only the default without a workspace", async () => {
  expect(await containerWorkdir("/srv/ws/x", "/srv/ws", { root: "/srv/ws", mount: "/w", local: false })).toBe("/w/x");
  expect(await containerWorkdir("/any", "/any", { root: undefined, mount: "/w", local: true })).toBe("/tmp");
  await expect(containerWorkdir("/other", "/any", { root: undefined, mount: "/w", local: true })).rejects.toThrow(/no workspace/);
});
