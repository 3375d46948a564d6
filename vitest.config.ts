import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Files that take longest (they run the kit, pack and install packages, start bwrap and sshd, or wait on real
// timers) start first: a fresh clone has no timing cache, and one of them picked up last would hold the whole run.
// The container attacks too: they start and stop engines of their own, and picked up last they were the run's last
// 15 s, with a core idle (issue 36).
const LONG_RUNNING = ["test/conformance/discrimination.test.ts", "test/conformance/mutation-table.test.ts", "test/packaging/", "test/reliability/",
  "test/executors/", "test/attacks/container", "test/security/container.test.ts"];

class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const path = relative(this.ctx.config.root, file.moduleId);
      const index = LONG_RUNNING.findIndex((prefix) => path.startsWith(prefix));
      return index < 0 ? LONG_RUNNING.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b)); // stable: the cache's order within a rank
  }
}

/** Test files that replace modules (vi.mock): they need a module registry of their own. */
function filesThatMockModules(): string[] {
  return readdirSync("test", { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".test.ts") && /\bvi\.(mock|doMock)\(/.test(readFileSync(join("test", path), "utf8")))
    .map((path) => join("test", path));
}
const MOCKING = filesThatMockModules();
/**
 * Test files that send real signals to their own process (the child-process bridge forwards them): in a worker
 * shared with other files, a signal meets whatever listeners those left, and once ended the worker (a run with one
 * vitest worker).
 */
const SIGNALLING = ["test/engine/child-process-bridge.test.ts"];
const OWN_PROCESS = [...MOCKING, ...SIGNALLING];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
    // Most test files wait on child processes and timers, not on the CPU: three at a time on this 2-core machine (four
    // made npm test no quicker: the conformance runs beside it are what the cores are busy with).
    maxWorkers: 3,
    sequence: { sequencer: LongRunningFirst },
    projects: [
      // A worker process runs one file after another with the modules it loaded kept: a fresh process and module
      // graph per file cost 40% of the unit tests' CPU. Files must therefore restore what they change in the process
      // (listeners, environment, timers) and compare counts with what they found, not with zero.
      { extends: true, test: { name: "shared", include: ["test/**/*.test.ts"], exclude: OWN_PROCESS, isolate: false } },
      { extends: true, test: { name: "isolated", include: OWN_PROCESS } },
    ],
  },
});
