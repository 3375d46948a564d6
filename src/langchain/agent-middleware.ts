// createAgent middleware without loading `langchain` (LC-19). Importing `langchain` costs about 190 ms of CPU
// (it loads all of createAgent), paid by every process that imports this package, such as each stdio server the
// conformance kit starts, though only createAgent users need a middleware, and they have `langchain` loaded
// already. langchain's createMiddleware only copies the hooks onto an object branded with the registered symbol
// below; test/langchain/agent-middleware.test.ts proves that ours builds the same object.
import type { createMiddleware as langchainCreateMiddleware } from "langchain";

/** langchain's MIDDLEWARE_BRAND: `Symbol.for("AgentMiddleware")`, the same symbol in every copy of langchain. */
const MIDDLEWARE_BRAND = Symbol.for("AgentMiddleware");

/** The same object as langchain's `createMiddleware(config)`, with its types. */
export const createMiddleware = ((config: object) => ({ [MIDDLEWARE_BRAND]: true, ...config })) as unknown as typeof langchainCreateMiddleware;
