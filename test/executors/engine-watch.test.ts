// The engine watch (issue 32): a request that an engine answering its pings takes long over goes on; one whose
// engine answers no ping either fails with container-engine-unresponsive within the answer bound.
import { expect, it } from "vitest";
import { ExecProcessError } from "../../src/index.js";
import * as messages from "../../src/engine/messages.js";
import { watched } from "../../src/executors/container/engine-watch.js";

const later = <T>(ms: number, value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));
const never = new Promise<never>(() => undefined);

it("lets a slow request of an engine that answers its pings finish", async () => {
  let pings = 0;
  const engine = { endpoint: "the test engine", docker: { ping: () => (pings += 1, later(10, "OK")) } };
  await expect(watched(engine, later(700, "done"), 300, 100)).resolves.toBe("done");
  expect(pings).toBeGreaterThanOrEqual(3);
});

it("fails a request of an engine that answers no ping, naming the engine and the bound, within that bound", async () => {
  const engine = { endpoint: "the test engine", docker: { ping: () => never } };
  const started = Date.now();
  const error = await watched(engine, never, 300, 100).catch((e: unknown) => e);
  expect(ExecProcessError.is(error, "container-engine-unresponsive")).toBe(true);
  expect((error as Error).message).toBe(messages.containerEngineUnresponsive("the test engine", 300));
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  expect(Date.now() - started).toBeLessThan(1500);
});

it("takes a failed ping (the engine's socket gone) as no answer, and passes the request's own error through", async () => {
  const engine = { endpoint: "the test engine", docker: { ping: () => Promise.reject(new Error("ECONNREFUSED")) } };
  expect(ExecProcessError.is(await watched(engine, never, 300, 100).catch((e: unknown) => e), "container-engine-unresponsive")).toBe(true);
  await expect(watched(engine, Promise.reject(new Error("refused")), 300, 100)).rejects.toThrow("refused");
});
