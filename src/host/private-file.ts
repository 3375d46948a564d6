// A secret written to a new file only its owner can read: the MCP server's generated token and the session host's.
import { closeSync, constants, openSync, writeSync } from "node:fs";

/** O_EXCL: never an existing file, nor a link planted where the file goes; mode 0600 (a umask can only narrow it). */
export function writeNewPrivateFile(file: string, text: string): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
