// The host executors the server registers: --sandbox bwrap (host "sandbox") and --ssh-config (host "node"). They are
// shared by every MCP session's engine and disposed once, after the engines.
import { readFileSync } from "node:fs";
import type { HostExecutor } from "../src/engine/index.js";
import { createSandboxExecutor, createSshExecutor, type SshNode } from "../src/executors/index.js";
import { invalid, pathBeside, readJsonFile, type ServerOptions } from "./options.js";

export interface ServerExecutors {
  executors: { sandbox?: HostExecutor; node?: HostExecutor };
  /** Ends what the executors still hold, e.g. SSH connections (after every engine is disposed). */
  dispose(): Promise<void>;
}

export function createServerExecutors(options: Pick<ServerOptions, "sandbox" | "allowedRoots" | "sshConfig">): ServerExecutors {
  const executors: ServerExecutors["executors"] = {};
  if (options.sandbox === "bwrap") {
    executors.sandbox = createSandboxExecutor(options.allowedRoots.length > 0 ? { allowedRoots: options.allowedRoots } : {});
  }
  if (options.sshConfig !== undefined) executors.node = createSshExecutor(readSshConfig(options.sshConfig));
  return {
    executors,
    dispose: async () => {
      await Promise.all(Object.values(executors).map((executor) => executor.dispose?.()));
    },
  };
}

/**
 * `{ "nodes": { "<name>": SshNode }, "shell"?: "/bin/sh" }`, where a node may give `privateKeyPath` (relative to the
 * file) instead of `privateKey`, and `agent: true` for the SSH_AUTH_SOCK of the server's environment.
 */
export function readSshConfig(file: string): Parameters<typeof createSshExecutor>[0] {
  const parsed = readJsonFile("--ssh-config", file);
  const nodes = parsed["nodes"];
  if (typeof nodes !== "object" || nodes === null || Array.isArray(nodes) || Object.keys(nodes).length === 0) {
    throw invalid("--ssh-config", 'a JSON file such as { "nodes": { "build": { "host": "…", "username": "…", "privateKeyPath": "…", "hostKey": "ssh-ed25519 …" } } }', file);
  }
  const resolved: Record<string, SshNode> = {};
  for (const [name, raw] of Object.entries(nodes as Record<string, Record<string, unknown>>)) {
    const { privateKeyPath, agent, ...node } = raw;
    const entry = { ...node } as unknown as SshNode;
    if (typeof privateKeyPath === "string") entry.privateKey = readKey(file, name, pathBeside(file, privateKeyPath));
    if (agent === true) {
      const socket = process.env["SSH_AUTH_SOCK"];
      if (!socket) throw invalid("--ssh-config", `SSH_AUTH_SOCK in the environment for node "${name}" (agent: true)`, file);
      entry.agent = socket;
    } else if (typeof agent === "string") {
      entry.agent = agent;
    }
    resolved[name] = entry;
  }
  return { nodes: resolved, ...(typeof parsed["shell"] === "string" ? { shell: parsed["shell"] } : {}) };
}

function readKey(file: string, node: string, keyFile: string): string {
  try {
    return readFileSync(keyFile, "utf8");
  } catch (error) {
    throw invalid("--ssh-config", `a readable privateKeyPath for node "${node}"`, `${keyFile}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"} (in ${file})`);
  }
}
