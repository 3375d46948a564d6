// A fatal error of the server (issue 32): an uncaught exception, an unhandled rejection, or its transport failing
// (stdout closed under it, stdin failing, the HTTP server's socket). The server exits with code 1 and says why on
// stderr in one line, without a stack or a host path; the engine's exit hook ends every process it started.
import { ExecProcessError } from "../src/engine/index.js";

/** A transport's stream or server failed; `where` names it (stdin, stdout, the HTTP server). */
export class TransportFailure extends Error {
  constructor(where: string, cause: unknown) {
    super(`${where}: ${describeCause(cause)}`, { cause });
    this.name = "TransportFailure";
  }
}

/** The one stderr line of a fatal error. */
export function fatalLine(error: unknown): string {
  const reason = error instanceof TransportFailure ? error.message : describeCause(error);
  return new ExecProcessError({ code: "server-fatal", reason }).message;
}

/** Until the returned function runs, an uncaught exception or an unhandled rejection logs its line and exits with 1. */
export function exitOnFatal(log: (line: string) => void): () => void {
  const onFatal = (error: unknown): void => {
    log(fatalLine(error));
    process.exit(1);
  };
  process.on("uncaughtException", onFatal);
  process.on("unhandledRejection", onFatal);
  return () => {
    process.off("uncaughtException", onFatal);
    process.off("unhandledRejection", onFatal);
  };
}

/** A system error as its call and code (`write EPIPE`), any other as its name and first line, paths left out. */
function describeCause(error: unknown): string {
  const { code, syscall } = (typeof error === "object" && error !== null ? error : {}) as NodeJS.ErrnoException;
  if (typeof code === "string" && /^E[A-Z0-9]+$/.test(code)) return syscall ? `${syscall} ${code}` : code;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return withoutPaths(text.split("\n")[0]!.trim());
}

/** Absolute paths and file URLs as <path>: a stack's frames and a message's paths name the host's folders. */
function withoutPaths(text: string): string {
  return text.replace(/(?:file:\/\/)?(?<![\w.~-])\/[^\s"'`()<>,;]+/g, "<path>");
}
