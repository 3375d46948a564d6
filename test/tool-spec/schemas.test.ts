// The zod input schemas of exec and process and the JSON schema a model sees (src/tool-spec/schemas.ts: LC-10 … LC-15), through the LangChain tools.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ExecToolkit } from "../../src/index.js";
import {
  call, detailsOf, jsonSchemaOf, newEngine, newToolkit, recordingEngine, sessionIdOf, setupToolkitTests, textOf,
} from "../langchain/helpers.js";

setupToolkitTests();

describe("schemas (LC-10 … LC-15)", () => {
  it("LC-10, LC-11: the exec schema requires only command and declares every documented parameter with its type", () => {
    const schema = jsonSchemaOf(newToolkit().exec);
    expect(schema.required).toEqual(["command"]);
    const types = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, value["type"]]));
    expect(types).toEqual({
      command: "string", workdir: "string", env: "object", yieldMs: "number", background: "boolean",
      timeoutSeconds: "number", timeout: "number", pty: "boolean", elevated: "boolean", host: "string", node: "string",
      title: "string",
    });
    expect(schema.properties["env"]?.["additionalProperties"]).toEqual({ type: "string" });
    expect(String(schema.properties["timeout"]?.["description"])).toMatch(/deprecated alias of timeoutSeconds/i);
  });

  it("LC-12, LC-13: the process schema requires only action; timeout is a number or a string", () => {
    const schema = z.toJSONSchema(newToolkit().process!.schema as z.ZodType) as { required?: string[]; properties: Record<string, Record<string, unknown>> };
    expect(schema.required).toEqual(["action"]);
    const types = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, value["type"]]));
    expect(types).toEqual({
      action: "string", sessionId: "string", data: "string", eof: "boolean", keys: "array", hex: "array",
      literal: "string", text: "string", bracketed: "boolean", offset: "number", limit: "number",
      timeout: ["number", "string"],
    });
    expect(schema.properties["keys"]?.["items"]).toEqual({ type: "string" });
    expect(schema.properties["hex"]?.["items"]).toEqual({ type: "string" });
  });

  it("LC-10, LC-12: no field carries a default, so none is required because of one", () => {
    for (const tool of newToolkit().getTools()) {
      const schema = jsonSchemaOf(tool);
      for (const property of Object.values(schema.properties)) expect(property).not.toHaveProperty("default");
    }
  });

  it("LC-14: action and host are plain strings, so invalid values reach the tools and produce their own errors", async () => {
    const toolkit = newToolkit();
    expect(jsonSchemaOf(toolkit.process).properties["action"]).not.toHaveProperty("enum");
    expect(jsonSchemaOf(toolkit.exec).properties["host"]).not.toHaveProperty("enum");
    for (const value of ["list", "poll", "log", "write", "send-keys", "submit", "paste", "kill", "clear", "remove"]) {
      expect(String(jsonSchemaOf(toolkit.process).properties["action"]?.["description"])).toContain(value);
    }
    for (const value of ["auto", "sandbox", "gateway", "node"]) expect(String(jsonSchemaOf(toolkit.exec).properties["host"]?.["description"])).toContain(value);
    const invalidAction = await call(toolkit.process, { action: "explode" });
    expect(textOf(invalidAction)).toBe("Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove");
    await expect(toolkit.exec.invoke({ command: "true", host: "moon" })).rejects.toThrow('Invalid exec host "moon". Allowed values: auto, sandbox, gateway, node.');
  });

  it("LC-13: a digit string as process timeout is honored as a poll wait", async () => {
    const toolkit = newToolkit();
    const id = sessionIdOf(await call(toolkit.exec, { command: "sleep 0.3; echo late; sleep 30", background: true }));
    const started = Date.now();
    const polled = await call(toolkit.process, { action: "poll", sessionId: id, timeout: "5000" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(textOf(polled)).toBe("late\n\nProcess still running.");
  });

  it("LC-15: undeclared properties such as title and ask pass the schema and reach the engine, which ignores them", async () => {
    const { engine, execCalls } = recordingEngine(newEngine());
    const toolkit = new ExecToolkit({ engine });
    const result = await call(toolkit.exec, { command: "echo ok", title: "greeting", ask: "always", security: "deny" });
    expect(textOf(result)).toBe("ok");
    expect(execCalls[0]?.params).toMatchObject({ command: "echo ok", title: "greeting", ask: "always", security: "deny" });
    const listed = await call(toolkit.process, { action: "list", verbose: true });
    expect(textOf(listed)).toBe("No running or recent sessions.");
  });

  it("LC-15: in synchronous mode yieldMs and background are not advertised but still reach the tool and trigger the warning", async () => {
    const { engine, execCalls } = recordingEngine(newEngine());
    const toolkit = new ExecToolkit({ engine, processTool: false });
    const schema = jsonSchemaOf(toolkit.exec);
    expect(Object.keys(schema.properties)).not.toContain("yieldMs");
    expect(Object.keys(schema.properties)).not.toContain("background");
    expect(schema.required).toEqual(["command"]);
    const result = await call(toolkit.exec, { command: "echo hi", background: true });
    expect(execCalls[0]?.params).toMatchObject({ background: true });
    expect(execCalls[0]?.ctx.processToolAvailable).toBe(false);
    expect(textOf(result)).toBe("Warning: continuation options are unavailable; running synchronously.\n\n\n\nhi");
    expect(detailsOf(result)["status"]).toBe("completed");
  });
});
