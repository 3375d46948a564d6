// Our createMiddleware builds exactly the object langchain's createMiddleware builds, so createAgent treats the
// exit-event middleware as its own (LC-19) without this package loading `langchain`.
import { createMiddleware as langchainCreateMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { createMiddleware } from "../../src/langchain/agent-middleware.js";

const hooks = {
  name: "Probe",
  beforeAgent: () => undefined,
  beforeModel: () => undefined,
  afterModel: () => undefined,
  afterAgent: () => undefined,
  wrapModelCall: async (request: unknown, handler: (request: unknown) => Promise<unknown>) => handler(request),
  wrapToolCall: async (request: unknown, handler: (request: unknown) => Promise<unknown>) => handler(request),
};

describe("createMiddleware", () => {
  it.each([
    ["only a name and a before-model hook", { name: "ExecExitEvents", beforeModel: hooks.beforeModel }],
    ["every hook", hooks],
  ])("builds the same object as langchain's createMiddleware from %s", (_label, config) => {
    const ours = createMiddleware(config as never) as unknown as Record<string | symbol, unknown>;
    const theirs = langchainCreateMiddleware(config as never) as unknown as Record<string | symbol, unknown>;
    expect(ours).toEqual(theirs);
    expect(Object.getOwnPropertySymbols(ours)).toEqual(Object.getOwnPropertySymbols(theirs));
    for (const symbol of Object.getOwnPropertySymbols(theirs)) expect(ours[symbol]).toBe(theirs[symbol]);
    const defined = (object: Record<string, unknown>) => Object.keys(object).filter((key) => object[key] !== undefined).sort();
    expect(defined(ours)).toEqual(defined(theirs));
  });
});
