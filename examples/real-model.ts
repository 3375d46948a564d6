// A real model driving the exec and process tools. Not part of the tests; it needs a provider package and a key:
//
//   npm install --no-save @langchain/openai     && OPENAI_API_KEY=...    npx tsx examples/real-model.ts
//   npm install --no-save @langchain/anthropic  && ANTHROPIC_API_KEY=... npx tsx examples/real-model.ts
//   npx tsx examples/real-model.ts "Run the tests in the background and tell me when they finish."
//
// Environment: LLM_PROVIDER (openai | anthropic; default: whichever key is set), LLM_MODEL (a model name of that
// provider). The model runs real shell commands on this machine, in a fresh temporary directory: read the prompt
// before you run it. Ctrl-C aborts the run (LC-22) and disposes the engine, which ends every process it started.
//
// The flow: the agent runs a turn; while background sessions are still running, the script waits until an exit
// notice is queued (the engine also calls onWake, NOTIFY-12) and runs the next turn, in which the middleware hands
// the notice to the model before its first call (LC-19). Foreground progress arrives as `exec_update` custom
// events (LC-17).
// In your own code, import from "langchain-exec-process" instead of "../src/index.js".
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { createAgent } from "langchain";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createExecTools, type SessionEngine } from "../src/index.js";
import { printHeading, printMessage, style } from "./transcript.js";

const DEFAULT_PROMPT =
  "Start `for i in 1 2 3; do echo step $i; sleep 1; done; echo build ok` in the background, " +
  "check on it once, and tell me the result when it has finished. Do not poll in a loop.";

const PROVIDERS = {
  openai: { packageName: "@langchain/openai", className: "ChatOpenAI", keyVariable: "OPENAI_API_KEY", defaultModel: "gpt-4.1-mini" },
  anthropic: { packageName: "@langchain/anthropic", className: "ChatAnthropic", keyVariable: "ANTHROPIC_API_KEY", defaultModel: "claude-sonnet-4-5" },
} as const;
type ProviderName = keyof typeof PROVIDERS;

/** Turns a foreseeable setup problem into one clear line instead of a stack trace. */
class SetupError extends Error {}

function chooseProvider(): ProviderName {
  const requested = process.env["LLM_PROVIDER"];
  if (requested !== undefined && requested !== "") {
    if (requested in PROVIDERS) return requested as ProviderName;
    throw new SetupError(`LLM_PROVIDER must be one of: ${Object.keys(PROVIDERS).join(", ")} (got "${requested}").`);
  }
  const withKey = (Object.keys(PROVIDERS) as ProviderName[]).find((name) => process.env[PROVIDERS[name].keyVariable]);
  if (withKey) return withKey;
  throw new SetupError("Set OPENAI_API_KEY or ANTHROPIC_API_KEY (and optionally LLM_PROVIDER, LLM_MODEL).");
}

/** Loads the provider package the user installed; it is not a dependency of this project, so it is imported by name. */
async function loadModel(): Promise<BaseChatModel> {
  const provider = PROVIDERS[chooseProvider()];
  if (!process.env[provider.keyVariable]) throw new SetupError(`${provider.keyVariable} is not set.`);
  const specifier: string = provider.packageName;
  let module: Record<string, unknown>;
  try {
    module = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND" && String(error).includes(provider.packageName)) {
      throw new SetupError(`${provider.packageName} is not installed. Install it with: npm install --no-save ${provider.packageName}`);
    }
    throw error;
  }
  const ChatModel = module[provider.className] as new (fields: Record<string, unknown>) => BaseChatModel;
  return new ChatModel({ model: process.env["LLM_MODEL"] || provider.defaultModel });
}

/** Runs the conversation: one turn, then one more turn per exit notice while background sessions remain. */
export async function runAgent(model: BaseChatModel, prompt: string, options: { signal?: AbortSignal; maxTurns?: number } = {}): Promise<BaseMessage[]> {
  const cwd = mkdtempSync(join(tmpdir(), "exec-real-model-"));
  const { tools, middleware, engine, toolkit, dispose } = createExecTools({
    agentName: "assistant",
    cwd,
    config: { tools: { exec: { notifyOnExitEmptySuccess: true } } }, // wake the agent for silent successes too
    onWake: ({ sessionId }) => console.log(style.yellow(`wake requested: session ${sessionId} exited`)),
  });
  const agent = createAgent({ model, tools, middleware: [middleware] });

  /** One agent turn, streamed: messages as the nodes produce them, exec progress as `exec_update` custom events. */
  async function runTurn(history: BaseMessage[]): Promise<BaseMessage[]> {
    const produced: BaseMessage[] = [];
    let lastProgress = "";
    const stream = await agent.stream({ messages: history }, { streamMode: ["updates", "custom"], signal: options.signal, recursionLimit: 40 });
    for await (const [mode, chunk] of stream) {
      if (mode === "custom") {
        const update = chunk as { event?: string; text?: string };
        const line = update.event === "exec_update" ? (update.text ?? "").trimEnd().split("\n").at(-1) ?? "" : "";
        if (line && line !== lastProgress) console.log(style.dim(`    … ${line}`));
        lastProgress = line;
        continue;
      }
      for (const update of Object.values(chunk as Record<string, { messages?: BaseMessage[] } | undefined>)) {
        for (const message of update?.messages ?? []) {
          printMessage(message);
          produced.push(message);
        }
      }
    }
    return produced;
  }

  let messages: BaseMessage[] = [new HumanMessage(prompt)];
  try {
    console.log(style.dim(`working directory: ${cwd}`));
    printMessage(messages[0]!);
    for (let turn = 1; turn <= (options.maxTurns ?? 5); turn += 1) {
      printHeading(`turn ${turn}`);
      messages = [...messages, ...(await runTurn(messages))];
      const waiting = (await engine.liveSessionIds()).length > 0 || (await engine.peekSystemEvents(toolkit.scopeKey)).length > 0;
      if (!waiting) break;
      console.log(style.dim("… background session still running; waiting for its exit notice"));
      await waitForExitNotice(engine, toolkit.scopeKey, options.signal);
      if ((await engine.peekSystemEvents(toolkit.scopeKey)).length === 0) break; // ended without a notice (e.g. killed)
    }
    return messages;
  } finally {
    await dispose();
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** Resolves once an exit notice is queued or no background session is left; in an application, onWake does this. */
async function waitForExitNotice(engine: SessionEngine, scopeKey: string, signal: AbortSignal | undefined): Promise<void> {
  while ((await engine.peekSystemEvents(scopeKey)).length === 0 && (await engine.liveSessionIds()).length > 0) {
    signal?.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort(new Error("interrupted")));
  try {
    const model = await loadModel();
    await runAgent(model, process.argv.slice(2).join(" ") || DEFAULT_PROMPT, { signal: controller.signal });
  } catch (error) {
    if (error instanceof SetupError) {
      console.error(error.message);
      process.exitCode = 2;
      return;
    }
    if (controller.signal.aborted) {
      console.error("aborted; every process the engine started has been ended.");
      process.exitCode = 130;
      return;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
