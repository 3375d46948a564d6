// What a host path is right now: its real path and the identity (device, inode) of what it names, read from one
// open descriptor so that the two belong together even while someone swaps the path.
import { open, readlink } from "node:fs/promises";
import { isAbsolute, relative } from "node:path";

/**
 * open(2) O_PATH (Linux; the same value on x86-64 and arm64): names the file without opening it for reading, so a
 * FIFO does not block, a device is not opened, and a directory without read permission still resolves.
 */
const O_PATH = 0o10_000_000;

export interface HostPath {
  /** The path with every symbolic link resolved (the kernel's name of the open descriptor). */
  real: string;
  dev: string;
  ino: string;
  isDirectory: boolean;
}

/** Resolves `path` (following symbolic links); undefined when it does not exist or cannot be reached. */
export async function inspectHostPath(path: string): Promise<HostPath | undefined> {
  let handle;
  try {
    handle = await open(path, O_PATH); // libuv adds O_CLOEXEC
  } catch {
    return undefined;
  }
  try {
    const [real, stat] = await Promise.all([readlink(`/proc/self/fd/${handle.fd}`), handle.stat({ bigint: true })]);
    if (!isAbsolute(real) || real.endsWith(" (deleted)")) return undefined;
    return { real, dev: String(stat.dev), ino: String(stat.ino), isDirectory: stat.isDirectory() };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** True when `path` is `dir` or lies below it (both absolute and normalized). */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}
