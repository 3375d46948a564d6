// `process list` labels are what a model reads: they get the same sanitizing as output (OUT-04 … OUT-06).
import { afterEach, describe, expect, it } from "vitest";
import { ctx, disposeEngines, newEngine, pollUntilDone, sessionIdOf, textOf } from "../reliability/helpers.js";

afterEach(disposeEngines);

describe("process list", () => {
  it.each([
    ["a bidi override (Cf, OUT-05) is removed", "echo x\u202eevil", "echo x\u202eevil", "echo xevil"],
    ["an escape sequence (OUT-04) is removed", "echo \u001b[31mred", "echo \u001b[31mred", "echo red"],
    ["a control character (OUT-06) is spelled as \\xNN", "echo a\u0007b", "echo a\u0007b", "echo a\\x07b"],
  ])("sanitizes the label and the name like output: %s", async (_title, command, raw, shown) => {
    const engine = newEngine();
    const id = sessionIdOf(await engine.exec({ command, background: true }, ctx));
    await pollUntilDone(engine, id);
    const list = await engine.process({ action: "list" }, ctx);
    expect(textOf(list).endsWith(` :: ${shown}`)).toBe(true);
    expect(textOf(list)).not.toContain(raw);
    const [entry] = list.details.sessions ?? [];
    expect(entry?.name).toBe(shown);
    expect(entry?.command).toBe(command); // the data field keeps the command exactly (EXEC-28)
  }, 30_000);
});
