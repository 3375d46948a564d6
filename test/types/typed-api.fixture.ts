// Compiled by test/types/typecheck.test.ts (and by `tsc -p tsconfig.json`): every `@ts-expect-error` line must be an
// error under --strict, and every other line must compile. Nothing here runs.
import type { ToolMessage } from "@langchain/core/messages";
import {
  createExecTools, ExecProcessError, type ExecTool, type ProcessAction, type ProcessInput, type ProcessTool, type WatchTool,
} from "../../src/index.js";

const { toolkit } = createExecTools({ agentName: "types" });

export async function toolsAreTypedByTheirSchemas(): Promise<void> {
  // @ts-expect-error `comand` is no field of exec, and `command` is missing
  await toolkit.exec.invoke({ comand: "x" });
  // @ts-expect-error `yeldMs` is no field of exec
  await toolkit.exec.invoke({ command: "x", yeldMs: 5 });
  // @ts-expect-error yieldMs is a number
  await toolkit.exec.invoke({ command: "x", yieldMs: "5" });
  // @ts-expect-error `sesionId` is no field of process
  await toolkit.process?.invoke({ action: "poll", sesionId: "x" });

  const text: string = await toolkit.exec.invoke({ command: "echo hi", yieldMs: 1000 });
  const message: ToolMessage = await toolkit.exec.invoke({ type: "tool_call", id: "1", name: "exec", args: { command: "echo hi" } });
  const polled: string | undefined = await toolkit.process?.invoke({ action: "poll", sessionId: "x", timeout: "2000" });
  // @ts-expect-error a ToolCall resolves to a ToolMessage, not a string
  const notText: string = await toolkit.exec.invoke({ type: "tool_call", id: "2", name: "exec", args: { command: "echo hi" } });
  void [text, message, polled, notText];
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

export async function processActionIsTheUnionOfTheTenActions(): Promise<void> {
  const tenActions: Equal<ProcessInput["action"], "list" | "poll" | "log" | "write" | "send-keys" | "submit" | "paste" | "kill" | "clear" | "remove"> = true;
  const sameAsTheEngine: Equal<ProcessAction, ProcessInput["action"]> = true;
  // @ts-expect-error "fly" is none of the ten actions
  await toolkit.process?.invoke({ action: "fly" });
  // @ts-expect-error "sendkeys" is none of the ten actions (send-keys is)
  await toolkit.process?.invoke({ action: "sendkeys", sessionId: "x" });
  // @ts-expect-error any string is not an action
  await toolkit.process?.invoke({ action: "poll" as string, sessionId: "x" });
  const sent: string | undefined = await toolkit.process?.invoke({ action: "send-keys", sessionId: "x", keys: ["C-c"] });
  const listed: string | undefined = await toolkit.process?.invoke({ action: "list" });
  // A model's tool call may carry any action: it reaches the tool, which returns PROC-02's text.
  const refused: ToolMessage | undefined = await toolkit.process?.invoke({ type: "tool_call", id: "3", name: "process", args: { action: "fly" } });
  const typedTools: Equal<ReturnType<typeof toolkit.getTools>, Array<ExecTool | ProcessTool | WatchTool>> = true;
  void [tenActions, sameAsTheEngine, sent, listed, refused, typedTools];
}

export function isNarrowsTheErrorData(error: unknown): void {
  if (ExecProcessError.is(error, "env-blocked")) {
    const blocked: string[] = error.data.blockedKeys;
    const code: "env-blocked" = error.code;
    void [blocked, code];
  }
  if (ExecProcessError.is(error, "invalid-input")) {
    const paths: Array<Array<string | number>> = error.data.issues.map((issue) => issue.path);
    // @ts-expect-error an invalid-input error has no blockedKeys
    void error.data.blockedKeys;
    void paths;
  }
  if (ExecProcessError.is(error)) {
    // @ts-expect-error without a code, data is any code's: narrow on data.code first
    void error.data.blockedKeys;
    if (error.data.code === "invalid-host") void error.data.value;
  }
}

export async function watchIsTypedByItsSchema(): Promise<void> {
  const { toolkit: watching } = createExecTools({ agentName: "types", watchTool: true });
  // @ts-expect-error `pattern` is missing
  await watching.watch?.invoke({ sessionId: "x" });
  // @ts-expect-error once is a boolean
  await watching.watch?.invoke({ sessionId: "x", pattern: "ready", once: "yes" });
  const started: string | undefined = await watching.watch?.invoke({ sessionId: "x", pattern: "ready", regex: true, timeoutSeconds: 5 });
  void started;
}
