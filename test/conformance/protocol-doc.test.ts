// PROTOCOL.md and protocol.schema.json describe the same protocol the code speaks: the example exchange is valid
// against the schema, the schema knows every method, and the Python skeleton of the document serves the kit.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from "@cucumber/gherkin";
import { IdGenerator } from "@cucumber/messages";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createStdioAdapter } from "../../conformance/adapters/stdio-client.js";
import type { StdioInstance } from "../../conformance/adapters/stdio-instance.js";
import { METHODS } from "../../conformance/adapters/stdio-protocol.js";
import { protocolSchema, validate } from "./helpers/json-schema-subset.js";
import { useScenarioEnv } from "./helpers/scenario-env.js";

const protocolDoc = readFileSync(fileURLToPath(new URL("../../conformance/PROTOCOL.md", import.meta.url)), "utf8");

/** The lines of the fenced blocks under a heading of PROTOCOL.md. */
function fencedBlocks(heading: string): string[] {
  const section = protocolDoc.split(/^## /m).find((part) => part.startsWith(heading));
  if (!section) throw new Error(`PROTOCOL.md has no section "${heading}"`);
  return [...section.matchAll(/```\w*\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe("PROTOCOL.md", () => {
  it("has an example exchange whose every line is valid against protocol.schema.json", () => {
    const methods = new Map<number, string>();
    const lines = fencedBlocks("7. A complete exchange").flatMap((block) => block.split("\n"));
    const messages = lines.filter((line) => /^[→←] /.test(line));
    expect(messages.length).toBeGreaterThan(10);
    for (const line of messages) {
      const message = JSON.parse(line.slice(2)) as { id: number; method?: string; result?: unknown };
      if (line.startsWith("→")) {
        expect(validate(message, "request"), line).toEqual([]);
        methods.set(message.id, message.method!);
      } else {
        expect(validate(message, "response"), line).toEqual([]);
        if (message.result) expect(validate(message.result, `${methods.get(message.id)}Result`), line).toEqual([]);
      }
    }
  });

  it("and the schema name the same methods as the code, each with its params and result", () => {
    const { $defs } = protocolSchema as { $defs: Record<string, { properties?: { method?: { enum: string[] } } }> };
    expect($defs["request"]?.properties?.method?.enum).toEqual([...METHODS]);
    for (const method of METHODS) {
      expect(protocolDoc).toContain(`| \`${method}\` |`);
      expect($defs[`${method}Result`], method).toBeDefined();
    }
  });
});

/** The §10 field name of a detail path: `sessions.0.name` → `sessions[].name`. */
const fieldOf = (path: string): string => path.replace(/\.\d+(\.|$)/g, "[]$1");

/**
 * The fields a `@doc` scenario reads: detail paths and JSON keys named in its steps (details, list entries, events,
 * wake requests), `status` for the status steps, and every `details` field that the step definitions read by name.
 */
function fieldsObservedByDocScenarios(): Map<string, string> {
  const fields = new Map<string, string>();
  const featuresDir = fileURLToPath(new URL("../../features/", import.meta.url));
  for (const file of readdirSync(featuresDir).filter((name) => name.endsWith(".feature"))) {
    const newId = IdGenerator.uuid();
    const document = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher()).parse(readFileSync(join(featuresDir, file), "utf8"));
    for (const pickle of compile(document, file, newId)) {
      if (!pickle.tags.some((tag) => tag.name === "@doc")) continue;
      for (const { text, argument } of pickle.steps) {
        const where = `${file}: ${pickle.name}: ${text}`;
        for (const [, path] of text.matchAll(/detail "([^"]+)"/g)) fields.set(fieldOf(path!), where);
        if (/^the status is/.test(text)) fields.set("status", where);
        if (/^the text of event/.test(text)) fields.set("text", where);
        if (!/details contain|has details containing|has fields/.test(text)) continue;
        const json = argument?.docString?.content ?? /'(\{.*\})'$/.exec(text)?.[1];
        const prefix = text.includes("listed session") ? "sessions[]." : "";
        for (const key of Object.keys(JSON.parse(json ?? "{}") as object)) fields.set(`${prefix}${key}`, where);
      }
    }
  }
  const stepsDir = fileURLToPath(new URL("../../step-definitions/", import.meta.url));
  for (const file of (readdirSync(stepsDir, { recursive: true }) as string[]).filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(join(stepsDir, file), "utf8");
    for (const [, quoted, dotted] of source.matchAll(/details(?:\?\.)?(?:\["(\w+)"\]|\.(\w+))/g)) {
      fields.set((quoted ?? dotted)!, `step-definitions/${file}`);
    }
  }
  return fields;
}

describe("PROTOCOL.md §10, what the scenarios observe", () => {
  const section = protocolDoc.split(/^## /m).find((part) => part.startsWith("10. What the scenarios observe")) ?? "";

  it("names every details field, list-entry field, event field and wake field that a @doc scenario reads", () => {
    const fields = fieldsObservedByDocScenarios();
    expect([...fields.keys()]).toEqual(expect.arrayContaining(["status", "timedOut", "waitingForInput", "sessions[].status", "scopeKey"]));
    const missing = [...fields].filter(([field]) => !section.includes(`\`${field}\``));
    expect(missing.map(([field, where]) => `${field} (read by ${where})`)).toEqual([]);
  });

  it("gives every status value and the words the discarded and omitted notes contain", () => {
    for (const word of ["`running`", "`completed`", "`failed`", "`discarded`", "`omitted`", "`timed out`"]) expect(section).toContain(word);
  });
});

const python = (() => {
  try {
    execFileSync("python3", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(python)("the Python skeleton of PROTOCOL.md", () => {
  const currentScenario = useScenarioEnv();

  it("serves the kit: start, a call, an already aborted call, dispose and the end of input", async () => {
    const [skeleton] = fencedBlocks("8. A Python skeleton");
    const stubEngine = [
      "class MyEngine:",
      "    def __init__(self, **options): self.options = options",
      "    def call(self, tool, args, scope, process_tool, allow_elevated, abort):",
      "        if abort.wait(0.5): return {'kind': 'error', 'message': 'Tool execution was aborted', 'name': 'AbortError'}",
      "        return {'kind': 'result', 'text': self.options['cwd'] + ' ' + self.options['env']['HOME'], 'details': {}, 'isError': False, 'updates': []}",
      "    def live_session_ids(self): return []",
      "    def dispose(self): pass",
      "",
    ].join("\n");
    const program = join(currentScenario().cwd, "..", "impl.py");
    writeFileSync(program, `${stubEngine}\n${skeleton!}`);
    const adapter = await createStdioAdapter({ command: `python3 ${program}`, callTimeoutMs: 10_000 });
    expect(adapter.capabilities).toEqual(["pty"]);
    const instance = (await adapter.start({ env: currentScenario().env, config: {}, cwd: currentScenario().cwd })) as StdioInstance;
    expect(await instance.call("exec", { command: "echo hi" }, { scope: "main" }))
      .toEqual({ kind: "result", text: `${currentScenario().cwd} ${currentScenario().env["HOME"]}`, details: {}, isError: false, updates: [] });
    expect(await instance.call("exec", { command: "echo hi" }, { scope: "main", abortAfterMs: 0 }))
      .toMatchObject({ kind: "error", name: "AbortError" });
    await instance.dispose();
    expect(await instance.liveSessionIds()).toEqual([]);
    await instance.close();
  });
});
