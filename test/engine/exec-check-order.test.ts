// The reference order of the exec checks (EXEC-03a): command, host value, elevation, host availability, working
// directory, environment. Scenarios pin only the working directory before the environment; the rest is ours.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { ctx, disposeEngines, newEngine, tempDir, textOf } from "../reliability/helpers.js";

afterEach(disposeEngines);

describe("exec checks (EXEC-03a)", () => {
  // The engine's cwd is made per test: disposeEngines removes it after each.
  const cwd = (): string => tempDir("order-");
  const touch = "touch made";

  it.each([
    ["the command before the host", { command: "", host: "bogus", elevated: true }, messages.MISSING_COMMAND],
    ["the host value before elevation", { command: touch, host: "bogus", elevated: true }, messages.invalidHost("bogus")],
    ["elevation before host availability", { command: touch, host: "node", elevated: true }, messages.ELEVATION_UNAVAILABLE],
    ["host availability before the working directory", { command: touch, host: "sandbox", workdir: "missing" },
      messages.hostUnavailable("sandbox")],
  ])("reports %s", async (_, params, message) => {
    const dir = cwd();
    const engine = newEngine({ cwd: dir });
    await expect(engine.exec(params, ctx)).rejects.toThrow(message);
    expect(existsSync(join(dir, "made"))).toBe(false);
  });

  it("returns the working-directory failure before checking the environment", async () => {
    const dir = cwd();
    const engine = newEngine({ cwd: dir });
    const result = await engine.exec({ command: touch, workdir: "missing", env: { LD_PRELOAD: "/x.so" } }, ctx);
    expect(result.details.status).toBe("failed");
    expect(textOf(result)).toMatch(/^workdir "missing" is unavailable or not a directory/);
  });

  it("checks the environment once the working directory is usable", async () => {
    const dir = cwd();
    const engine = newEngine({ cwd: dir });
    await expect(engine.exec({ command: touch, env: { LD_PRELOAD: "/x.so" } }, ctx))
      .rejects.toThrow("Security Violation: Environment variable 'LD_PRELOAD' is forbidden during host execution.");
    expect(existsSync(join(dir, "made"))).toBe(false);
  });
});
