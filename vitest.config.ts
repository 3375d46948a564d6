import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most test files wait on child processes and timers, not on the CPU: three at a time on this 2-core machine.
    maxWorkers: 3,
  },
});
