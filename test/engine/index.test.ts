// src/engine/index.ts, the engine entry (`langchain-exec-process/engine`), and src/index.ts, the package entry: they
// export what the README and SPEC §0.1 document.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as engineEntry from "../../src/engine/index.js";
import * as packageEntry from "../../src/index.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The names the README's code imports from the package, e.g. `import { createSessionEngine } from "langchain-exec-process"`. */
function namesImportedInReadme(): string[] {
  const imports = readme.matchAll(/import \{([^}]*)\} from "langchain-exec-process"/g);
  return [...new Set([...imports].flatMap((match) => (match[1] ?? "").split(",").map((name) => name.trim()).filter(Boolean)))];
}

describe("entries", () => {
  it("the package entry exports every name the README imports from it, as a value", () => {
    const names = namesImportedInReadme();
    expect(names).toEqual(expect.arrayContaining(["createSessionEngine", "ExecToolkit", "createExecTools", "createSandboxExecutor", "createSshExecutor"]));
    const exported = packageEntry as Record<string, unknown>;
    for (const name of names) expect(exported[name], name).toBeTypeOf("function");
  });

  it("the engine entry exports the engine and the bridge helper (SPEC §0.1, KILL-17)", () => {
    expect(engineEntry.createSessionEngine).toBeTypeOf("function");
    expect(engineEntry.attachChildProcessBridge).toBeTypeOf("function");
    expect(engineEntry.DEFAULT_BRIDGE_SIGNALS).toEqual(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]);
  });

  it("the engine entry is framework-free: it exports no executor, the package entry does (issue 24)", () => {
    const engine = engineEntry as Record<string, unknown>;
    expect(["createSandboxExecutor", "createSshExecutor", "REMOTE_ENV_KEYS"].filter((name) => name in engine)).toEqual([]);
    expect(packageEntry.createSandboxExecutor).toBeTypeOf("function");
    expect(packageEntry.createSshExecutor).toBeTypeOf("function");
  });

  it("the package entry re-exports everything the engine entry exports, as the same values", () => {
    const fromPackage = packageEntry as Record<string, unknown>;
    for (const [name, value] of Object.entries(engineEntry)) expect(fromPackage[name], name).toBe(value);
  });

  it("the package entry exports the LangChain layer: both tools, the toolkit and the exit-event helpers (SPEC §13)", () => {
    for (const name of ["ExecTool", "ProcessTool", "ExecToolkit", "createExecTools", "createExitEventMiddleware", "createExitEventNode"]) {
      expect((packageEntry as Record<string, unknown>)[name], name).toBeTypeOf("function");
    }
  });
});
