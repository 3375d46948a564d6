// The sandbox's mount plan on its own: what is mounted where, what is hidden, what the supervisor checks, and
// which configurations are refused. The attacks themselves run in test/security/sandbox.test.ts.
import { mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExecProcessError } from "../../src/engine/errors.js";
import { planMounts, type MountPlanRequest } from "../../src/executors/sandbox/mount-plan.js";
import { cleanUp, scratchDir } from "./helpers.js";

afterEach(cleanUp);

function identity(path: string): [string, string] {
  const stat = statSync(path, { bigint: true });
  return [String(stat.dev), String(stat.ino)];
}

function request(overrides: Partial<MountPlanRequest> & { cwd: string }): MountPlanRequest {
  return { allowedRoots: [overrides.cwd], writable: [], binds: [], hidden: ["/tmp"], controlBase: "/tmp", ...overrides };
}

async function refusal(plan: Promise<unknown>): Promise<ExecProcessError> {
  const error = await plan.then(() => undefined, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(ExecProcessError);
  return error as ExecProcessError;
}

describe("planMounts", () => {
  it("mounts the workdir at its real path and asks the supervisor to check its identity", async () => {
    const root = scratchDir("plan-root-");
    mkdirSync(join(root, "real"));
    symlinkSync(join(root, "real"), join(root, "link"));
    const plan = await planMounts(request({ cwd: join(root, "link"), allowedRoots: [root] }));
    expect(plan.cwd).toBe(join(root, "real"));
    expect(plan.steps).toEqual([{ kind: "bind", source: join(root, "real"), target: join(root, "real") }]);
    expect(plan.checks).toEqual([[join(root, "real"), ...identity(join(root, "real"))]]);
    expect(plan.labels).toEqual([{ option: "workdir", path: join(root, "link") }]);
  });

  it("hides a hidden host folder outside /tmp, also where a read-only bind shows it again", async () => {
    const work = scratchDir("plan-work-");
    const tree = scratchDir("plan-tree-");
    mkdirSync(join(tree, "control"));
    const plan = await planMounts(request({
      cwd: work, hidden: [join(tree, "control"), "/tmp/x"], controlBase: join(tree, "control"),
      binds: [{ source: tree, target: "/tmp/tree", readonly: true }],
    }));
    expect(plan.steps).toEqual([
      { kind: "hide", target: join(tree, "control") },
      { kind: "ro-bind", source: tree, target: "/tmp/tree" },
      { kind: "hide", target: "/tmp/tree/control" },
      { kind: "bind", source: work, target: work },
    ]);
    expect(plan.checks.map(([target]) => target)).toEqual(["/tmp/tree", work]);
  });

  it("does not check a mount that a later one covers", async () => {
    const work = scratchDir("plan-work-");
    const extra = scratchDir("plan-extra-");
    const plan = await planMounts(request({ cwd: work, binds: [{ source: extra, target: work }] }));
    expect(plan.checks).toEqual([[work, ...identity(work)]]);
    expect(plan.labels).toEqual([{ option: "workdir", path: work }]);
  });

  it.each([
    ["a writable path", { writable: ["/var/tmp"] }, "writable[0]", "/var/tmp"],
    ["a read-write bind", { binds: [{ source: "/var" }] }, "binds[0].source", "/var"],
  ] as const)("refuses %s that contains the host's temporary folder", async (_title, options, option, path) => {
    const work = scratchDir("plan-work-");
    const error = await refusal(planMounts(request({ cwd: work, controlBase: "/var/tmp/x", hidden: ["/var/tmp/x"], ...options })));
    expect(error.data).toEqual({ code: "sandbox-mount-refused", option, path, problem: "covers-control-dir" });
  });

  it("refuses a workdir that contains the host's temporary folder, on workdir", async () => {
    const work = scratchDir("plan-work-");
    mkdirSync(join(work, "tmp"));
    const error = await refusal(planMounts(request({ cwd: work, controlBase: join(work, "tmp"), hidden: [join(work, "tmp")] })));
    expect(error.data).toEqual({ code: "sandbox-mount-refused", param: "workdir", option: "workdir", path: work, problem: "covers-control-dir" });
  });

  it("lets a read-only bind show the temporary folder's parent, with the folder itself hidden", async () => {
    const work = scratchDir("plan-work-");
    const plan = await planMounts(request({ cwd: work, controlBase: "/var/tmp/x", hidden: ["/var/tmp/x"], binds: [{ source: "/var", target: "/tmp/var", readonly: true }] }));
    expect(plan.steps.slice(0, 3)).toEqual([
      { kind: "hide", target: "/var/tmp/x" },
      { kind: "ro-bind", source: "/var", target: "/tmp/var" },
      { kind: "hide", target: "/tmp/var/tmp/x" },
    ]);
  });

  it.each([
    ["under /tmp", "/tmp/cache/deep", true],
    ["an existing folder of the read-only root", "/usr", true],
    ["a missing folder of the read-only root", "/no-such-folder", false],
    ["an existing file where a folder is mounted", "/etc/hostname", false],
    ["/proc", "/proc/cache", false],
  ])("a bind target %s is usable: %s", async (_title, target, usable) => {
    const work = scratchDir("plan-work-");
    const source = scratchDir("plan-source-");
    const plan = planMounts(request({ cwd: work, binds: [{ source, target }] }));
    if (usable) expect((await plan).steps[0]).toEqual({ kind: "bind", source, target });
    else expect((await refusal(plan)).data).toMatchObject({ option: "binds[0].target", path: target, problem: "target-unavailable" });
  });

  it("a file bind's target in a read-only bind must exist there as a file", async () => {
    const work = scratchDir("plan-work-");
    const tree = scratchDir("plan-tree-");
    writeFileSync(join(tree, "present"), "");
    const file = join(scratchDir("plan-file-"), "config");
    writeFileSync(file, "x");
    const binds = [{ source: tree, target: "/tmp/tree", readonly: true }, { source: file, target: "/tmp/tree/present" }];
    expect((await planMounts(request({ cwd: work, binds }))).steps[1]).toEqual({ kind: "bind", source: file, target: "/tmp/tree/present" });
    const missing = [binds[0]!, { source: file, target: "/tmp/tree/absent" }];
    expect((await refusal(planMounts(request({ cwd: work, binds: missing })))).data).toMatchObject({ option: "binds[1].target", problem: "target-unavailable" });
  });
});
