// writeNewPrivateFile: a secret goes into a new file of mode 0600, never into an existing file or through a link.
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeNewPrivateFile } from "../../src/host/private-file.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "private-file-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("writeNewPrivateFile", () => {
  it("writes a new file only its owner may read", () => {
    writeNewPrivateFile(join(dir, "token"), "secret");
    expect(readFileSync(join(dir, "token"), "utf8")).toBe("secret");
    expect(statSync(join(dir, "token")).mode & 0o777).toBe(0o600);
  });

  it("refuses a file that exists, and a link planted where the file goes", () => {
    writeFileSync(join(dir, "existing"), "old");
    expect(() => writeNewPrivateFile(join(dir, "existing"), "secret")).toThrow(/EEXIST/);
    symlinkSync(join(dir, "elsewhere"), join(dir, "link"));
    expect(() => writeNewPrivateFile(join(dir, "link"), "secret")).toThrow(/EEXIST/);
    expect(readFileSync(join(dir, "existing"), "utf8")).toBe("old");
  });
});
