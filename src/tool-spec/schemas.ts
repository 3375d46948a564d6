// zod 4 input schemas of the two tools (LC-10 … LC-15). Every field is optional() — never default(), which would
// make it required in the JSON schema the model sees; defaults are applied by the engine. Unknown keys pass through.
import { z } from "zod";
import type { ProcessAction } from "../engine/index.js";
import { EXEC_PARAMETERS as E, PROCESS_PARAMETERS as P, WATCH_PARAMETERS as W } from "./descriptions.js";

const execFields = {
  command: z.string().describe(E.command),
  workdir: z.string().optional().describe(E.workdir),
  env: z.record(z.string(), z.string()).optional().describe(E.env),
  yieldMs: z.number().optional().describe(E.yieldMs),
  background: z.boolean().optional().describe(E.background),
  timeoutSeconds: z.number().optional().describe(E.timeoutSeconds),
  timeout: z.number().optional().describe(E.timeout),
  pty: z.boolean().optional().describe(E.pty),
  elevated: z.boolean().optional().describe(E.elevated),
  host: z.string().optional().describe(E.host),
  node: z.string().optional().describe(E.node),
  title: z.string().optional().describe(E.title),
};

/** LC-10, LC-11. */
export const execSchema = z.looseObject(execFields);

/** LC-15: synchronous mode advertises no continuation options (values sent anyway still reach the engine). */
export const execSyncSchema = z.looseObject((({ yieldMs: _y, background: _b, ...rest }) => rest)(execFields));

const processFields = {
  action: z.string().describe(P.action),
  sessionId: z.string().optional().describe(P.sessionId),
  data: z.string().optional().describe(P.data),
  eof: z.boolean().optional().describe(P.eof),
  keys: z.array(z.string()).optional().describe(P.keys),
  hex: z.array(z.string()).optional().describe(P.hex),
  literal: z.string().optional().describe(P.literal),
  text: z.string().optional().describe(P.text),
  bracketed: z.boolean().optional().describe(P.bracketed),
  offset: z.number().optional().describe(P.offset),
  limit: z.number().optional().describe(P.limit),
  timeout: z.union([z.number(), z.string()]).optional().describe(P.timeout),
};

/** LC-12, LC-13. */
export const processSchema = z.looseObject(processFields);

/**
 * The arguments as TypeScript sees them: only the documented fields, so that `exec.invoke({ comand: "x" })` does not
 * compile. At run time unknown keys still pass (PROC-05), as the model may send them.
 */
export type ExecInput = z.input<z.ZodObject<typeof execFields>>;
/**
 * `action` is one of the ten actions for TypeScript callers (`action: "fly"` does not compile), while the schema keeps
 * it a plain string (LC-14), so that a model's invalid action reaches the tool and gets PROC-02's text.
 */
export type ProcessInput = Omit<z.input<z.ZodObject<typeof processFields>>, "action"> & { action: ProcessAction };

const watchFields = {
  sessionId: z.string().describe(W.sessionId),
  pattern: z.string().describe(W.pattern),
  regex: z.boolean().optional().describe(W.regex),
  once: z.boolean().optional().describe(W.once),
  timeoutSeconds: z.number().optional().describe(W.timeoutSeconds),
};

/** The `watch` tool (issue 34), outside the documented two. */
export const watchSchema = z.looseObject(watchFields);

export type WatchInput = z.input<z.ZodObject<typeof watchFields>>;
