// The bearer token an HTTP server generates when the operator gives none (issue 32: no token was the default on
// loopback, and any local user could open sessions). The token goes into a new file only its owner can read (0600),
// by default in a new folder only its owner can enter (mkdtemp: 0700); the server prints where, never the token.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeNewPrivateFile } from "../src/host/private-file.js";
import { GENERATED_TOKEN_BYTES, invalid, TOKEN_DIR_PREFIX, TOKEN_FILE_NAME } from "./options.js";

export interface TokenFile {
  readonly token: string;
  readonly path: string;
  /** Deletes the file (and the folder made for it); also runs when the process exits. */
  remove(): void;
}

/** Writes a new random token to `path` (--token-file), or to a file in a new private folder under the temp dir. */
export function writeTokenFile(path: string | undefined): TokenFile {
  const token = randomBytes(GENERATED_TOKEN_BYTES).toString("hex");
  const folder = path === undefined ? mkdtempSync(join(tmpdir(), TOKEN_DIR_PREFIX)) : undefined;
  const file = path ?? join(folder!, TOKEN_FILE_NAME);
  try {
    writeNewPrivateFile(file, token);
  } catch (error) {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code ?? "unwritable";
    throw invalid("--token-file", "a path where no file exists yet, in a folder this user can write", `${file}: ${code}`);
  }
  const remove = (): void => {
    process.off("exit", remove);
    rmSync(folder ?? file, { recursive: true, force: true });
  };
  process.on("exit", remove);
  return { token, path: file, remove };
}
