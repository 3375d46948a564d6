// The create request of a container: the isolation defaults and the workspace mount.
import { expect, it } from "vitest";
import { normalizeContainerOptions } from "../../src/executors/container/container-options.js";
import { containerSpec, EXECUTOR_LABEL, OWNER_LABEL } from "../../src/executors/container/container-spec.js";

const identity = { token: "t0", owner: "host:1", key: "session:s" };

it("isolates by default: no network, read-only root, no capabilities, no-new-privileges, init, limits", () => {
  const spec = containerSpec(normalizeContainerOptions({ image: "alpine", memory: "256m", cpus: 0.5, pidsLimit: 64, user: "1000:1000" }), identity, "/srv/ws");
  expect(spec.Labels).toMatchObject({ [EXECUTOR_LABEL]: "t0", [OWNER_LABEL]: "host:1" });
  expect(spec.User).toBe("1000:1000");
  expect(spec.HostConfig).toMatchObject({
    AutoRemove: true, NetworkMode: "none", ReadonlyRootfs: true, CapDrop: ["ALL"], SecurityOpt: ["no-new-privileges"], Init: true,
    PidsLimit: 64, Memory: 256 * 1024 ** 2, MemorySwap: 256 * 1024 ** 2, NanoCpus: 5e8, Binds: ["/srv/ws:/workspace:rw"],
  });
  expect(Object.keys(spec.HostConfig?.Tmpfs ?? {})).toContain("/tmp");
});

it("mounts the workspace read-only under ro and not at all under none", () => {
  expect(containerSpec(normalizeContainerOptions({ image: "a", workspaceAccess: "ro" }), identity, "/w").HostConfig?.Binds).toEqual(["/w:/workspace:ro"]);
  expect(containerSpec(normalizeContainerOptions({ image: "a", workspaceAccess: "none" }), identity, undefined).HostConfig?.Binds).toEqual([]);
});
