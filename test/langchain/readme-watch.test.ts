// The README's watch example, run as a script (issue 34): with a scripted model in place of `model`, the agent starts
// a dev server that prints its ready line after 2 s, watches for it, and is woken by the watch event while the server
// still runs; the script prints the three lines and ends by itself.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { readmeTypeScriptBlocks, ROOT, useScratchFolder } from "../helpers/readme.js";

const SCRIPT_TIMEOUT_MS = 60_000;

/** The model the README leaves to the reader: exec in the background, watch its session, then answer twice. */
const SCRIPTED_MODEL = `import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "langchain";
const model = fakeModel()
  .respondWithTools([{ name: "exec", args: { command: "sleep 2; echo 'dev server ready on :5173'; sleep 5", background: true } }])
  .respond((messages) => {
    const text = String(messages.filter((m) => m instanceof ToolMessage).at(-1)?.content);
    const sessionId = /Command still running \\(session ([^,)]+),/.exec(text)?.[1];
    return new AIMessage({ content: "", tool_calls: [{ id: "w1", name: "watch", args: { sessionId, pattern: "ready" } }] });
  })
  .respond(new AIMessage("Started it; I will tell you when it is ready."))
  .respond(new AIMessage("The dev server is ready on :5173."));
`;

function watchScript(): string {
  const [script, ...others] = readmeTypeScriptBlocks().filter((code) => code.includes("ready.nextRun()"));
  expect(others).toEqual([]);
  return script!.replaceAll('from "langchain-exec-process"', `from ${JSON.stringify(join(ROOT, "src/index.ts"))}`);
}

const work = useScratchFolder("readme-watch-");

it("prints the agent's answer, the watch event and the woken agent's answer, as the README's watch script", () => {
  const file = join(work(), "watch.mts");
  writeFileSync(file, `${SCRIPTED_MODEL}${watchScript()}`);
  const run = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: ROOT, encoding: "utf8", timeout: SCRIPT_TIMEOUT_MS });
  expect(run.stderr).toBe("");
  expect(run.stdout.split("\n").map((line) => line.replace(/\([a-z0-9-]+\)/, "(<id>)"))).toEqual([
    "agent: Started it; I will tell you when it is ready.",
    "system: Output matched (<id>): dev server ready on :5173",
    "agent: The dev server is ready on :5173.",
    "",
  ]);
  expect(run.status).toBe(0);
}, SCRIPT_TIMEOUT_MS);
