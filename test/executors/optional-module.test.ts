// The loader of an optional peer dependency: the module's default export (or the CommonJS module itself), imported
// once; a failed import becomes the install hint and is tried again on the next call, since the package may be
// installed while the engine runs.
import { expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { optionalModule } from "../../src/executors/optional-module.js";

it("gives the default export of an ES module, and the module itself when it has none", async () => {
  const client = { connect: () => "connected" };
  await expect(optionalModule(async () => ({ default: client }), "ssh-module-missing")()).resolves.toBe(client);
  await expect(optionalModule(async () => client, "ssh-module-missing")()).resolves.toBe(client);
});

it("imports once, however many callers ask at the same time or later", async () => {
  let imports = 0;
  const load = optionalModule(async () => ({ default: { n: ++imports } }), "container-module-missing");
  const [first, second] = await Promise.all([load(), load()]);
  const third = await load();
  expect(imports).toBe(1);
  expect(second).toBe(first);
  expect(third).toBe(first);
});

it("turns a failed import into the install hint, and imports again on the next call", async () => {
  let installed = false;
  let imports = 0;
  const load = optionalModule(async () => {
    imports += 1;
    if (!installed) throw new Error("Cannot find package 'dockerode' imported from /somewhere/node_modules");
    return { default: "dockerode" };
  }, "container-module-missing");

  const error = await load().catch((e: unknown) => e);
  expect(ExecProcessError.is(error, "container-module-missing")).toBe(true);
  expect((error as Error).message).toBe(messages.CONTAINER_MODULE_MISSING);
  await expect(load()).rejects.toThrow(messages.CONTAINER_MODULE_MISSING);

  installed = true;
  await expect(load()).resolves.toBe("dockerode");
  expect(imports).toBe(3);
});

it("names the package the caller gave: ssh2's hint for ssh2", async () => {
  const load = optionalModule(async () => Promise.reject(new Error("missing")), "ssh-module-missing");
  await expect(load()).rejects.toThrow(messages.SSH_MODULE_MISSING);
});
