// The folders where programs usually put their unix sockets (Docker, D-Bus, ssh-agent, systemd, a desktop
// session's runtime directory). Without network an empty tmpfs hides each of them; the seccomp filter
// (seccomp-filter.ts) keeps every other socket on the filesystem from answering.
import { inspectHostPath, isWithin } from "./host-path.js";

const USUAL_FOLDERS = ["/run", "/var/run"];

/** The real paths of the socket folders that exist here, with the engine's XDG_RUNTIME_DIR; none inside another. */
export async function socketFolders(env: Record<string, string>): Promise<string[]> {
  const runtimeDir = env["XDG_RUNTIME_DIR"];
  const candidates = [...USUAL_FOLDERS, ...(runtimeDir?.startsWith("/") ? [runtimeDir] : [])];
  const found = await Promise.all(candidates.map((path) => inspectHostPath(path)));
  const folders = [...new Set(found.flatMap((path) => (path?.isDirectory ? [path.real] : [])))];
  return folders.filter((path) => !folders.some((other) => other !== path && isWithin(path, other)));
}
