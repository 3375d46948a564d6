// Shell selection and arguments (EXEC-27, EXEC-28).
import { accessSync, constants } from "node:fs";
import { basename, delimiter, join } from "node:path";

/** Finds an executable named `name` on `path`. */
function which(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The shell for commands, from the engine's environment (EXEC-27). */
export function selectShell(env: Record<string, string | undefined>): string {
  const shell = env["SHELL"]?.trim();
  const path = env["PATH"];
  if (shell) {
    const name = basename(shell);
    if (name !== "false" && name !== "nologin") {
      if (name !== "fish") return shell;
      return which("bash", path) ?? which("sh", path) ?? shell;
    }
  }
  return which("sh", path) ?? which("bash", path) ?? "/bin/sh";
}

/** Arguments placed before the command text, by shell basename (EXEC-28). */
export function shellArgs(shell: string): string[] {
  switch (basename(shell)) {
    case "bash": return ["--noprofile", "--norc", "-c"];
    case "zsh": return ["-f", "-c"];
    case "fish": return ["--no-config", "-c"];
    default: return ["-c"];
  }
}
