// The containers of one executor against a real dockerd (issue 21): one per scope, agent or for all; removed when
// idle; and those of an executor whose process died by SIGKILL are gone once another executor starts.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { EXECUTOR_LABEL } from "../../src/executors/container/container-spec.js";
import { containerEngine, containersWith, describeDocker, executorOn, useDockerDaemon } from "./docker-helpers.js";
import { cleanUp, scratchDir, waitUntil } from "./helpers.js";

const daemon = useDockerDaemon("container-pool.test.ts");
afterEach(cleanUp);

describeDocker("container pool", () => {
  it.each([
    ["session", 3], ["agent", 2], ["shared", 1],
  ] as const)("scope %s gives the scope keys agent:a:1, agent:a:2 and agent:b %i container(s)", async (scope, count) => {
    const { engine, executor } = containerEngine(daemon(), { scope });
    for (const scopeKey of ["agent:a:1", "agent:a:2", "agent:b"]) await engine.exec({ host: "sandbox", command: "true" }, { scopeKey });
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`)).toHaveLength(count);
  });

  it("keeps a container's files between commands of a scope, and removes it after idleTtlMs", async () => {
    const { engine, executor } = containerEngine(daemon(), { idleTtlMs: 1000 });
    const ctx = { scopeKey: "keep" };
    await engine.exec({ host: "sandbox", command: "echo there > /tmp/note" }, ctx);
    expect((await engine.exec({ host: "sandbox", command: "cat /tmp/note" }, ctx)).content[0].text).toBe("there");
    expect(await waitUntil(() => containersWith(daemon(), `${EXECUTOR_LABEL}=${executor.token}`).length === 0, 15_000)).toBe(true);
    expect((await engine.exec({ host: "sandbox", command: "cat /tmp/note 2>/dev/null || echo fresh" }, ctx)).content[0].text).toBe("fresh");
  });

  it("leaves no container of a host killed with SIGKILL once another executor starts", async () => {
    const dir = scratchDir("container-host-");
    const script = join(dir, "host.mjs");
    // The build, in plain node: through tsx the start cost over twice the CPU (test/global-setup.ts keeps dist/ current).
    const entry = new URL("../../dist/src/index.js", import.meta.url).pathname;
    writeFileSync(script, [
      `import { createContainerExecutor } from ${JSON.stringify(entry)};`,
      `const executor = createContainerExecutor({ image: ${JSON.stringify(daemon().image)}, docker: { socketPath: ${JSON.stringify(daemon().socketPath)} }, workspaceAccess: "none" });`,
      `const request = { command: "sleep 100", cwd: "/", defaultCwd: "/", env: {}, envOverrides: {}, pty: false, elevated: false, scopeKey: "s" };`,
      "await executor.spawn(request);",
      "console.log(executor.token);",
      "setInterval(() => {}, 1000);",
    ].join("\n"));
    const host = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"], cwd: new URL("../..", import.meta.url).pathname });
    const token = await new Promise<string>((resolve) => host.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${token}`)).toHaveLength(1);
    host.kill("SIGKILL");
    await new Promise((resolve) => host.once("exit", resolve));
    const next = executorOn(daemon(), { workspaceAccess: "none" });
    const request = { command: "true", cwd: "/", defaultCwd: "/", env: {}, envOverrides: {}, pty: false, elevated: false, scopeKey: "s" };
    await new Promise<void>((resolve) => void next.spawn(request).then((p) => p.onExit(() => resolve())));
    expect(containersWith(daemon(), `${EXECUTOR_LABEL}=${token}`)).toEqual([]);
  });
});
