// conformance/adapters/mcp-reuse.ts with the repository's server (scripts/mcp-bundle.cjs --in-turn): the kit's MCP
// sessions served one after another by kept processes must each be what a server of its own would be: its own
// environment and working directory, its processes ended at its end, and nothing of one in the next.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AdapterInstance, CallOutcome } from "../../conformance/adapter.js";
import { createMcpAdapter } from "../../conformance/adapters/mcp-client.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const command = `"${process.execPath}" "${join(ROOT, "scripts/mcp-bundle.cjs")}"`;
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function scenarioFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "mcp-reuse-"));
  folders.push(folder);
  return folder;
}

const textOf = (outcome: CallOutcome): string => (outcome.kind === "result" ? outcome.text : `error: ${outcome.message}`);
const detailOf = (outcome: CallOutcome, key: string): unknown => (outcome.kind === "result" ? outcome.details[key] : undefined);

/** The pid of the process that served a scope: the shell's parent is its engine's process. */
async function servingPid(instance: AdapterInstance, scope = "main"): Promise<number> {
  const outcome = await instance.call("exec", { command: "echo $PPID" }, { scope });
  return Number(textOf(outcome));
}

/** Running or sleeping: a zombie that no one has reaped yet has ended. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return false;
  }
}

describe("MCP sessions served in turn (--reuse with --mcp)", () => {
  const adapter = createMcpAdapter({ command, callTimeoutMs: 60_000, reuse: true });

  it("gives each scenario its environment and working directory, in one kept process", async () => {
    const seen: Array<{ text: string; pid: number }> = [];
    for (const mark of ["first", "second"]) {
      const cwd = scenarioFolder();
      const instance = await adapter.start({ env: { PATH: "/usr/bin:/bin", MARK: mark }, config: {}, cwd });
      try {
        seen.push({ text: textOf(await instance.call("exec", { command: "echo $MARK; pwd" }, { scope: "main" })), pid: await servingPid(instance) });
        expect(seen.at(-1)?.text).toBe(`${mark}\n${cwd}`);
      } finally {
        await instance.dispose();
      }
    }
    expect(seen[1]?.pid).toBe(seen[0]?.pid);
    // The kept process has a neutral environment: no scenario's variables, so the survivor check never counts it.
    const environ = readFileSync(`/proc/${seen[0]!.pid}/environ`, "latin1").split("\0");
    expect(environ.filter((entry) => entry.startsWith("MARK="))).toEqual([]);
  });

  it("ends a scenario's processes at its end, and lists none of them in the next scenario", async () => {
    const first = await adapter.start({ env: { PATH: "/usr/bin:/bin" }, config: {}, cwd: scenarioFolder() });
    const started = await first.call("exec", { command: "sleep 60 & echo $!; wait", background: true }, { scope: "main" });
    expect(detailOf(started, "status")).toBe("running");
    const sessionId = String(detailOf(started, "sessionId"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = await first.call("process", { action: "log", sessionId }, { scope: "main" });
    const sleeper = Number(textOf(log).trim());
    expect(alive(sleeper)).toBe(true);
    await first.dispose();
    expect(alive(sleeper)).toBe(false);

    const next = await adapter.start({ env: { PATH: "/usr/bin:/bin" }, config: {}, cwd: scenarioFolder() });
    try {
      const listed = await next.call("process", { action: "list" }, { scope: "main" });
      expect(detailOf(listed, "sessions")).toEqual([]);
    } finally {
      await next.dispose();
    }
  });

  it("serves two scopes of one scenario at once from two processes", async () => {
    const instance = await adapter.start({ env: { PATH: "/usr/bin:/bin" }, config: {}, cwd: scenarioFolder() });
    try {
      const [main, other] = await Promise.all([servingPid(instance, "main"), servingPid(instance, "other")]);
      expect(main).not.toBe(other);
      const listed = await instance.call("process", { action: "list" }, { scope: "other" });
      expect(detailOf(listed, "sessions")).toEqual([]); // the main scope's exec is not the other scope's
    } finally {
      await instance.dispose();
    }
  });

  it("ends a session's processes when the kit's worker exits in the middle of it", async () => {
    const script = [
      `import { createMcpAdapter } from ${JSON.stringify(join(ROOT, "dist/conformance/adapters/mcp-client.js"))};`,
      `const adapter = createMcpAdapter({ command: ${JSON.stringify(command)}, callTimeoutMs: 60000, reuse: true });`,
      `const instance = await adapter.start({ env: { PATH: "/usr/bin:/bin" }, config: {}, cwd: ${JSON.stringify(scenarioFolder())} });`,
      'const started = await instance.call("exec", { command: "sleep 60 & echo $!; wait", background: true }, { scope: "main" });',
      "await new Promise((resolve) => setTimeout(resolve, 300));",
      'const log = await instance.call("process", { action: "log", sessionId: started.details.sessionId }, { scope: "main" });',
      "console.log(log.text.trim());",
      "process.exit(0);",
    ].join("\n");
    const { spawnSync } = await import("node:child_process");
    const worker = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
    const sleeper = Number(worker.stdout.trim());
    expect(sleeper, worker.stderr).toBeGreaterThan(0);
    for (let waited = 0; alive(sleeper) && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(sleeper)).toBe(false);
  });

  it("replaces a kept process that died: the next scenario gets a new one", async () => {
    const instance = await adapter.start({ env: { PATH: "/usr/bin:/bin" }, config: {}, cwd: scenarioFolder() });
    const pid = await servingPid(instance);
    process.kill(pid, "SIGKILL");
    const outcome = await instance.call("exec", { command: "echo late" }, { scope: "main" });
    expect(outcome.kind).toBe("error");
    await instance.dispose();
    const next = await adapter.start({ env: { PATH: "/usr/bin:/bin" }, config: {}, cwd: scenarioFolder() });
    try {
      const newPid = await servingPid(next);
      expect(newPid).not.toBe(pid);
      expect(alive(newPid)).toBe(true);
    } finally {
      await next.dispose();
    }
  });
});
