// A host mount that goes away while bubblewrap binds "/" with every mount under it (a Docker engine's overlay as a
// container stops) fails that sandbox's setup: seen in CI, with the container pass's dockerd beside the sandbox pass.
// Nothing ran, so the executor sets the sandbox up again, up to three attempts; other setup failures are reported at
// once. A bubblewrap that fails its first launches on purpose stands in for the race, which no test can time.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSandboxExecutor } from "../../src/index.js";
import { cleanUp, ctx, engineWith, scratchDir, textOf } from "./helpers.js";

const bwrap = spawnSync("sh", ["-c", "command -v bwrap"], { encoding: "utf8" }).stdout.trim();
if (!bwrap) console.warn("sandbox setup retry tests skipped: bwrap is not installed (apt-get install bubblewrap)");

afterEach(cleanUp);

const MOUNT_RACE = `Can't bind mount /oldroot/ on /newroot/: Unable to apply mount flags: remount "/newroot/tmp/d/overlay2/x/merged": Invalid argument`;

/** A bwrap that says `message` and fails its first `failures` launches, then runs the real one; the probe passes. */
function flakyBwrap(failures: number, message: string): { path: string; launches(): number } {
  const dir = scratchDir("flaky-bwrap-");
  const path = join(dir, "bwrap");
  const count = join(dir, "launches");
  writeFileSync(path, [
    "#!/bin/sh",
    'for last in "$@"; do :; done',
    `if [ "$last" = true ]; then exec ${bwrap} "$@"; fi`, // the probe: bwrap-probe.ts runs "true"
    `n=$(( $(cat ${count} 2>/dev/null || echo 0) + 1 )); echo $n > ${count}`,
    `if [ $n -le ${failures} ]; then echo ${JSON.stringify(`bwrap: ${message}`)} >&2; exit 1; fi`,
    `exec ${bwrap} "$@"`,
  ].join("\n"));
  chmodSync(path, 0o755);
  return { path, launches: () => (existsSync(count) ? Number(readFileSync(count, "utf8")) : 0) };
}

describe.skipIf(!bwrap)("the sandbox executor when bubblewrap fails on a host mount", () => {
  it("sets the sandbox up again and runs the command once", async () => {
    const fake = flakyBwrap(2, MOUNT_RACE);
    const engine = engineWith("sandbox", createSandboxExecutor({ bwrapPath: fake.path }), scratchDir("sandbox-work-"));
    const result = await engine.exec({ host: "sandbox", command: "echo ran >> runs; cat runs" }, ctx);
    expect(textOf(result)).toBe("ran");
    expect(fake.launches()).toBe(3);
  });

  it("reports the failure in bubblewrap's words after three attempts", async () => {
    const fake = flakyBwrap(10, MOUNT_RACE);
    const engine = engineWith("sandbox", createSandboxExecutor({ bwrapPath: fake.path }), scratchDir("sandbox-work-"));
    await expect(engine.exec({ host: "sandbox", command: "echo never" }, ctx))
      .rejects.toThrow(`The sandbox could not be set up: bubblewrap said "${MOUNT_RACE.slice(0, 200)}". The command was not executed.`);
    expect(fake.launches()).toBe(3);
  });

  it("reports any other setup failure at once", async () => {
    const fake = flakyBwrap(10, "Creating new namespace failed: No space left on device");
    const engine = engineWith("sandbox", createSandboxExecutor({ bwrapPath: fake.path }), scratchDir("sandbox-work-"));
    await expect(engine.exec({ host: "sandbox", command: "echo never" }, ctx))
      .rejects.toThrow('The sandbox could not be set up: bubblewrap said "Creating new namespace failed: No space left on device".');
    expect(fake.launches()).toBe(1);
  });
});
