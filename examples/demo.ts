// `npm run demo`: a scripted agent (createAgent + fakeModel: no API key, no network) that walks through the whole
// flow of the exec and process tools and prints the conversation as it goes:
//   1. start a background build with exec and poll it,
//   2. start an interactive installer in a PTY and answer its prompt with write + submit,
//   3. end the turn; the exit events of both jobs are queued and a wake-up is requested,
//   4. on the next turn the middleware hands the completion notices to the model before its first call,
//   5. the model lists the sessions and reads the build log,
//   6. dispose() ends every process the engine started.
// In your own code, import from "langchain-exec-process" instead of "../src/index.js".
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createAgent, fakeModel } from "langchain";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExecTools, type WakeRequest } from "../src/index.js";
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
  .respond(new AIMessage("The build finished (dist/app.js) and the plugins are installed."));

// ---- the run ----------------------------------------------------------------------------------------------------

const cwd = mkdtempSync(join(tmpdir(), "exec-demo-"));
const wakes: WakeRequest[] = [];
// SHELL=/bin/sh keeps the demo independent of the user's login shell.
const { tools, middleware, engine, dispose } = createExecTools({
  agentName: "builder", cwd, env: { ...process.env, SHELL: "/bin/sh" }, onWake: (request) => void wakes.push(request),
});
const agent = createAgent({ model, tools, middleware: [middleware] });

async function waitForBackgroundJobs(): Promise<void> {
  for (let i = 0; i < 500 && (engine.liveSessionIds().length > 0 || wakes.length < 2); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

try {
  console.log(bold("exec + process tools: a scripted agent run (fake model, no network)"));
  console.log(dim(`working directory: ${cwd}`));

  heading("turn 1");
  const first = await agent.invoke({ messages: [new HumanMessage("Build the project, then run the plugin installer and answer yes.")] });
  first.messages.forEach(printMessage);

  heading("meanwhile");
  await waitForBackgroundJobs();
  for (const wake of wakes) console.log(`${yellow("wake requested")} for session ${bold(wake.sessionId)} (scope ${wake.scopeKey})`);

  heading("turn 2 (woken by the exit events)");
  const second = await agent.invoke({ messages: first.messages });
  second.messages.slice(first.messages.length).forEach(printMessage);
} finally {
  heading("shutdown");
  await dispose();
  console.log(`engine disposed; live sessions: ${engine.liveSessionIds().length}`);
  rmSync(cwd, { recursive: true, force: true });
}
