// exec-process-mcp with real host executors: --sandbox bwrap runs every local command in the sandbox, whatever host
// the model names; --ssh-config sends host "node" over SSH. Skipped with the reason when bwrap or sshd is missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sshdUnavailableReason, startSshd } from "../../scripts/sshd-fixture.mjs";
import * as messages from "../../src/engine/messages.js";
import { call, connectStdio, SERVER_BIN, serverEnv, texts, type Connected } from "./helpers.js";

const bwrapMissing = spawnSync("bwrap", ["--version"]).status !== 0;
const sshdMissing = sshdUnavailableReason();
if (bwrapMissing) console.warn("MCP sandbox tests skipped: bwrap is not installed");
if (sshdMissing) console.warn(`MCP SSH tests skipped: ${sshdMissing}`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A directory outside /tmp, which the sandbox replaces with its own. */
function scratch(prefix: string): string {
  const dir = mkdtempSync(join("/var/tmp", prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function server(args: string[]): Promise<Connected> {
  const connected = await connectStdio(args);
  cleanups.push(() => connected.close());
  return connected;
}

describe.skipIf(bwrapMissing)("--sandbox bwrap", () => {
  it.each([["omitted", undefined], ["auto", "auto"], ["gateway", "gateway"]])(
    "runs a command whose host is %s in the sandbox: its cwd is writable, the rest of the host is not",
    async (_title, host) => {
      const work = scratch("mcp-sandbox-work-");
      const outside = scratch("mcp-sandbox-outside-");
      const { client } = await server(["--cwd", work, "--sandbox", "bwrap"]);
      const result = await call(client, "exec", {
        command: `touch inside && echo wrote-inside; touch ${outside}/escaped 2>/dev/null || echo outside-refused`,
        ...(host ? { host } : {}),
      });
      expect(texts(result)).toEqual(["wrote-inside\noutside-refused"]);
      expect(existsSync(join(work, "inside"))).toBe(true);
      expect(existsSync(join(outside, "escaped"))).toBe(false);
    },
  );

  it("refuses a workdir outside --cwd, and admits one under an --allowed-root", async () => {
    const work = scratch("mcp-sandbox-work-");
    const other = scratch("mcp-sandbox-other-");
    const { client: confined } = await server(["--cwd", work, "--sandbox", "bwrap"]);
    const refused = await call(confined, "exec", { command: "pwd", workdir: other });
    expect(refused.isError).toBe(true);
    expect(texts(refused)).toEqual([messages.sandboxWorkdirOutside(other, [work])]);
    const { client: widened } = await server(["--cwd", work, "--sandbox", "bwrap", "--allowed-root", work, "--allowed-root", other]);
    expect(texts(await call(widened, "exec", { command: "pwd", workdir: other }))).toEqual([other]);
  });

  it("refuses to start with --allow-elevated as well, naming both flags", () => {
    const run = spawnSync(process.execPath, [SERVER_BIN, "--sandbox", "bwrap", "--allow-elevated"], { env: serverEnv(), encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--allow-elevated expects no --sandbox (elevated commands would run outside the sandbox) (got "--sandbox bwrap").');
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack
  });
});

describe.skipIf(Boolean(sshdMissing))("--ssh-config", () => {
  it("sends host node to the configured node over SSH, with its key read beside the file", async () => {
    const sshd = await startSshd();
    cleanups.push(() => sshd.stop());
    const dir = scratch("mcp-ssh-");
    writeFileSync(join(dir, "user_key"), sshd.privateKey, { mode: 0o600 });
    writeFileSync(join(dir, "nodes.json"), JSON.stringify({
      nodes: { fixture: { host: sshd.host, port: sshd.port, username: sshd.username, privateKeyPath: "user_key", hostKey: sshd.hostKey } },
    }));
    const { client } = await server(["--cwd", dir, "--ssh-config", join(dir, "nodes.json")]);
    const result = await call(client, "exec", { command: 'echo "via ${SSH_CONNECTION%% *}"', host: "node" });
    expect(texts(result)).toEqual(["via 127.0.0.1"]);
    expect(result.structuredContent).toMatchObject({ status: "completed", exitCode: 0 });
  });
});
