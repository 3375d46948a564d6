// scripts/as-unprivileged.mjs: the command runs as a plain user, from the repository, and what it writes to {out}
// is handed back (issue 20: the security tests run under root and under an unprivileged user).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("runs the command as a user without root's uid or capabilities, in the repository, and copies {out} back", () => {
  const out = mkdtempSync(join(tmpdir(), "as-unprivileged-test-"));
  dirs.push(out);
  const script = 'id -u > {out}/uid; grep CapEff /proc/self/status > {out}/caps; test -f package.json && echo repo > {out}/where; exit 7';
  const result = spawnSync("node", ["scripts/as-unprivileged.mjs", "--out", out, "--", "sh", "-c", script], { encoding: "utf8" });
  expect(result.status).toBe(7); // the command's own exit code
  const uid = Number(readFileSync(join(out, "uid"), "utf8").trim());
  expect(uid).toBeGreaterThan(0);
  if (process.getuid?.() !== 0) expect(uid).toBe(process.getuid?.());
  expect(readFileSync(join(out, "caps"), "utf8").trim()).toBe("CapEff:\t0000000000000000");
  expect(readFileSync(join(out, "where"), "utf8").trim()).toBe("repo");
});

it("refuses a call without a command", () => {
  const result = spawnSync("node", ["scripts/as-unprivileged.mjs", "--out", "x"], { encoding: "utf8" });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain("usage: node scripts/as-unprivileged.mjs");
});
