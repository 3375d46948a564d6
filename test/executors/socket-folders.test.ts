// src/executors/sandbox/socket-folders.ts: the folders an empty tmpfs hides without network: /run, /var/run and the
// engine's XDG_RUNTIME_DIR, as real paths, each once, none inside another.
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { socketFolders } from "../../src/executors/sandbox/socket-folders.js";
import { cleanUp, scratchDir } from "./helpers.js";

afterEach(cleanUp);

const isDirectory = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/** This host's usual socket folders as real paths, each once (on most hosts /var/run is a link to /run). */
const usual = [...new Set(["/run", "/var/run"].filter(isDirectory).map((path) => realpathSync(path)))];

/** A folder that exists inside /run's real path, when there is one. */
const insideRun = isDirectory("/run")
  ? readdirSync(realpathSync("/run"), { withFileTypes: true }).find((entry) => entry.isDirectory() && !entry.isSymbolicLink())?.name
  : undefined;

describe("socketFolders", () => {
  it("lists the usual folders of this host, as real paths, without an XDG_RUNTIME_DIR", async () => {
    expect(await socketFolders({})).toEqual(usual);
  });

  it("adds the engine's XDG_RUNTIME_DIR, at its real path, after the usual folders", async () => {
    const dir = scratchDir("socket-folders-");
    mkdirSync(join(dir, "runtime"));
    symlinkSync(join(dir, "runtime"), join(dir, "link"));
    expect(await socketFolders({ XDG_RUNTIME_DIR: join(dir, "link") })).toEqual([...usual, join(dir, "runtime")]);
  });

  it("ignores an XDG_RUNTIME_DIR that is relative, missing or not a directory", async () => {
    const dir = scratchDir("socket-folders-");
    writeFileSync(join(dir, "file"), "x");
    expect(isDirectory("test")).toBe(true); // relative to this process's cwd, the repository
    for (const runtimeDir of ["test", join(dir, "missing"), join(dir, "file"), ""]) {
      expect(await socketFolders({ XDG_RUNTIME_DIR: runtimeDir }), runtimeDir).toEqual(usual);
    }
  });

  it.skipIf(usual.length === 0)("lists a folder that is a link to another candidate once", async () => {
    const link = join(scratchDir("socket-folders-"), "run-link");
    symlinkSync(usual[0] ?? "", link);
    expect(await socketFolders({ XDG_RUNTIME_DIR: link })).toEqual(usual);
  });

  it.skipIf(insideRun === undefined)("leaves out an XDG_RUNTIME_DIR inside /run: hiding /run hides it", async () => {
    const runtimeDir = join(realpathSync("/run"), insideRun ?? "");
    expect(await socketFolders({ XDG_RUNTIME_DIR: runtimeDir })).toEqual(usual);
  });

  it("keeps only the outer folder when a usual folder lies inside XDG_RUNTIME_DIR", async () => {
    expect(await socketFolders({ XDG_RUNTIME_DIR: "/" })).toEqual(["/"]);
  });
});
