// The README's wakeOnExit script, run as a script (issue 37 item 1): with a scripted model in place of `model`, it
// prints the agent's first answer, the exit event and the woken agent's answer, and then ends by itself.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { readmeTypeScriptBlocks, ROOT, useScratchFolder } from "../helpers/readme.js";

const SCRIPT_TIMEOUT_MS = 60_000;

/** The model the README leaves to the reader: it starts a 1 s build in the background, then answers twice. */
const SCRIPTED_MODEL = `import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "langchain";
const model = fakeModel()
  .respondWithTools([{ name: "exec", args: { command: "sleep 1; echo built", background: true } }])
  .respond(new AIMessage("Started the build."))
  .respond(new AIMessage("The build finished: built"));
`;

/** The README's TypeScript block that prints the woken agent's answer. */
function wakeScript(): string {
  const [script, ...others] = readmeTypeScriptBlocks().filter((code) => code.includes("wake.nextRun()") && code.includes("print("));
  expect(others).toEqual([]);
  return script!.replaceAll('from "langchain-exec-process"', `from ${JSON.stringify(join(ROOT, "src/index.ts"))}`);
}

const work = useScratchFolder("readme-wake-");

it("prints the woken agent's answer and ends by itself, as the README's wakeOnExit script", () => {
  const file = join(work(), "wake.mts");
  writeFileSync(file, `${SCRIPTED_MODEL}${wakeScript()}`);
  const run = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: ROOT, encoding: "utf8", timeout: SCRIPT_TIMEOUT_MS });
  expect(run.stderr).toBe("");
  expect(run.stdout.split("\n").map((line) => line.replace(/\(\S{1,8}, code 0\)/, "(<id8>, code 0)"))).toEqual([
    "agent: Started the build.",
    "system: Exec completed (<id8>, code 0) :: built",
    "agent: The build finished: built",
    "",
  ]);
  expect(run.status).toBe(0);
}, SCRIPT_TIMEOUT_MS);
