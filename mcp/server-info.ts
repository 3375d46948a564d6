// The name and version the server reports in its initialize answer.
import { readFileSync } from "node:fs";

export const SERVER_NAME = "exec-process-mcp";

let version: string | undefined;

/** The package version: packages/mcp/package.json beside the compiled files, else the repository's (the same). */
export function serverVersion(): string {
  version ??= ["../package.json", "../../package.json"].map((path) => readVersion(new URL(path, import.meta.url))).find(Boolean) ?? "0.0.0";
  return version;
}

function readVersion(url: URL): string | undefined {
  try {
    return (JSON.parse(readFileSync(url, "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
