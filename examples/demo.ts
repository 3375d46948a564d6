// `npm run demo`: a scripted agent (createAgent + fakeModel: no API key, no network) that walks through the whole
// flow of the exec and process tools and prints the conversation as it goes:
//   1. start a background build with exec and poll it,
//   2. start an interactive installer in a PTY and answer its prompt with write + submit,
//   3. end the turn; the exit events of both jobs are queued and a wake-up is requested,
//   4. toolkit.wakeOnExit runs the idle agent again on its thread, with no user message: the middleware hands the
//      completion notices to the model before its first call,
//   5. the model lists the sessions and reads the build log,
//   6. stop() ends the wake-ups and dispose() ends every process the engine started.
// In your own code, import from "langchain-exec-process" instead of "../src/index.js".
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, fakeModel } from "langchain";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExecTools, type WakeableRunnable, type WakeRequest } from "../src/index.js";
import { printHeading as heading, printMessage, style } from "./transcript.js";

const { bold, dim, yellow } = style;

const BUILD = "echo 'compiling 3 modules...'; sleep 1.5; echo 'build ok: dist/app.js'";
const INSTALLER = "printf 'Install plugins? [y/N] '; read -r answer; echo \"answer: $answer\"; sleep 0.2; echo 'plugins installed'";

// ---- the scripted model ------------------------------------------------------------------------------------------

/** The session id of the last exec result whose command matches. */
function sessionOf(messages: BaseMessage[], command: string): string {
  const calls = new Map(messages.flatMap((m) => (m instanceof AIMessage ? m.tool_calls ?? [] : [])).map((c) => [c.id, c.args]));
  const result = messages.filter((m): m is ToolMessage => m instanceof ToolMessage && m.name === "exec")
    .reverse().find((m) => calls.get(m.tool_call_id)?.["command"] === command);
  const sessionId = (result?.artifact as { sessionId?: string } | undefined)?.sessionId;
  if (!sessionId) throw new Error(`no running session for ${command}`);
  return sessionId;
}

let callNumber = 0;
function toolCall(name: string, args: Record<string, unknown>): AIMessage {
  callNumber += 1;
  return new AIMessage({ content: "", tool_calls: [{ type: "tool_call", id: `call_${callNumber}`, name, args }] });
}

const model = fakeModel()
  // turn 1
  .respond(() => toolCall("exec", { command: BUILD, background: true }))
  .respond((m) => toolCall("process", { action: "poll", sessionId: sessionOf(m, BUILD), timeout: 5000 }))
  .respond(() => toolCall("exec", { command: INSTALLER, pty: true, background: true }))
  .respond((m) => toolCall("process", { action: "poll", sessionId: sessionOf(m, INSTALLER), timeout: 5000 }))
  .respond((m) => toolCall("process", { action: "write", sessionId: sessionOf(m, INSTALLER), data: "y" }))
  .respond((m) => toolCall("process", { action: "submit", sessionId: sessionOf(m, INSTALLER) }))
  .respond(new AIMessage("Both jobs are running. I will continue when their completion notices arrive."))
  // turn 2, after the wake-up
  .respond(() => toolCall("process", { action: "list" }))
  .respond((m) => toolCall("process", { action: "log", sessionId: sessionOf(m, BUILD) }))
  .respond(new AIMessage("The build finished (dist/app.js) and the plugins are installed."))
  // a second wake-up, only if the machine is so slow that the two exits fall into separate bursts
  .respond(new AIMessage("Nothing else has finished."));

// ---- the run ----------------------------------------------------------------------------------------------------

const cwd = mkdtempSync(join(tmpdir(), "exec-demo-"));
const wakes: WakeRequest[] = [];
// SHELL=/bin/sh keeps the demo independent of the user's login shell.
const { tools, middleware, engine, toolkit, dispose } = createExecTools({
  agentName: "builder", cwd, env: { ...process.env, SHELL: "/bin/sh" }, onWake: (request) => void wakes.push(request),
});
// A checkpointer keeps the conversation of the thread, so a wake run continues it.
const agent = createAgent({ model, tools, middleware: [middleware], checkpointer: new MemorySaver() });
const thread = { configurable: { thread_id: "demo" } };

/** The agent, printing what each wake run added to the conversation; `woken` settles after the first one. */
let shown = 0;
let resolveWoken: () => void = () => undefined;
const woken = new Promise<void>((resolve) => (resolveWoken = resolve));
const printingAgent: WakeableRunnable = {
  async invoke(input, config) {
    const result = await agent.invoke(input, config);
    result.messages.slice(shown).forEach(printMessage);
    shown = result.messages.length;
    resolveWoken();
    return result;
  },
};

// Both jobs end within about a second of each other: a 2 s debounce gives the pair one wake run.
const stopWaking = toolkit.wakeOnExit(printingAgent, thread, {
  debounceMs: 2000,
  onRun: (run) => {
    for (const wake of wakes.splice(0)) console.log(`${yellow("wake requested")} for session ${bold(wake.sessionId)} (scope ${wake.scopeKey})`);
    heading(`turn 2 (woken by ${run.events.length} exit event(s), no user message)`);
  },
  onError: (error) => console.error("wake run failed:", error),
});

try {
  console.log(bold("exec + process tools: a scripted agent run (fake model, no network)"));
  console.log(dim(`working directory: ${cwd}`));

  heading("turn 1");
  const first = await agent.invoke({ messages: [new HumanMessage("Build the project, then run the plugin installer and answer yes.")] }, thread);
  first.messages.forEach(printMessage);
  shown = first.messages.length;

  heading("meanwhile");
  console.log(dim("the turn has ended; the agent is idle while the jobs finish"));
  await woken;
} finally {
  heading("shutdown");
  stopWaking();
  await dispose();
  console.log(`engine disposed; live sessions: ${(await engine.liveSessionIds()).length}`);
  rmSync(cwd, { recursive: true, force: true });
}
