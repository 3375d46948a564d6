// createContainerExecutor's options: defaults, Docker's size forms, refusals naming the option, and scope keys.
import { describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import { containerKey, formatBytes, normalizeContainerOptions, parseBytes } from "../../src/executors/container/container-options.js";

describe("normalizeContainerOptions", () => {
  it("fills the isolation defaults", () => {
    const settings = normalizeContainerOptions({ image: "alpine:3.20", docker: { host: "build", protocol: "ssh" } });
    expect(settings).toMatchObject({
      scope: "session", workspaceAccess: "rw", workspaceMount: "/workspace", user: "65534:65534", network: "none",
      memoryBytes: 512 * 1024 ** 2, nanoCpus: 1e9, pidsLimit: 256, tmpSizeBytes: 256 * 1024 ** 2, idleTtlMs: 600_000,
    });
  });

  it.each([
    [{ memory: "1m" }, "memory"], [{ cpus: 0 }, "cpus"], [{ pidsLimit: 2 }, "pidsLimit"], [{ scope: "thread" }, "scope"],
    [{ workspaceAccess: "write" }, "workspaceAccess"], [{ idleTtlMs: -1 }, "idleTtlMs"], [{ image: "" }, "image"],
    [{ workspaceMount: "relative" }, "workspaceMount"], [{ nodes: {} }, "nodes"],
    [{ nodes: { a: { socketPath: "/s" } }, docker: { socketPath: "/s" } }, "nodes"],
  ])("refuses %o naming %s", (options, option) => {
    const error = (() => {
      try {
        normalizeContainerOptions({ image: "alpine", ...options } as never);
      } catch (e) {
        return e;
      }
    })();
    expect(ExecProcessError.is(error, "invalid-option")).toBe(true);
    expect((error as ExecProcessError).data).toMatchObject({ owner: "createContainerExecutor", option });
  });
});

it("reads Docker's size forms and names limits in MiB or GiB", () => {
  expect([parseBytes("memory", "256m"), parseBytes("memory", "1G"), parseBytes("memory", 1000), parseBytes("memory", "64k")])
    .toEqual([256 * 1024 ** 2, 1024 ** 3, 1000, 65536]);
  expect([formatBytes(256 * 1024 ** 2), formatBytes(2 * 1024 ** 3), formatBytes(1000)]).toEqual(["256 MiB", "2 GiB", "1000 bytes"]);
});

it("maps scope keys to containers per session, per agent (OpenClaw's agent:<name>:…) or one for all", () => {
  expect(containerKey("session", "agent:a:1")).toBe("session:agent:a:1");
  expect([containerKey("agent", "agent:a:1"), containerKey("agent", "agent:a"), containerKey("agent", "thread:7")]).toEqual(["agent:a", "agent:a", "agent:thread:7"]);
  expect(containerKey("shared", "anything")).toBe("shared");
});
