// The reference adapter hands each progress update to CallOptions.onUpdate while the call runs (EXEC-39), which is
// what lets a scenario's command wait until the kit has seen an update (<wait for update N>).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolUpdate } from "../../conformance/adapter.js";
import createReferenceAdapter from "../../conformance/adapters/reference.js";
import createNoProgressAdapter from "./fixtures/no-progress-adapter.js";
import { useScenarioEnv } from "./helpers/scenario-env.js";

const currentScenario = useScenarioEnv();

/** Its second line waits for a file that onUpdate writes: the call completes only if the first update came early. */
const WAITS_FOR_THE_KIT = "echo one; until [ -e seen ]; do sleep 0.05; done; echo two";

describe("CallOptions.onUpdate", () => {
  it("receives each update of the reference while the call runs, the same updates the outcome lists", async () => {
    const instance = await createReferenceAdapter().start({ env: currentScenario().env, config: {}, cwd: currentScenario().cwd });
    const seen: ToolUpdate[] = [];
    const onUpdate = (update: ToolUpdate): void => {
      seen.push(update);
      writeFileSync(join(currentScenario().cwd, "seen"), "");
    };
    const outcome = await instance.call("exec", { command: WAITS_FOR_THE_KIT, yieldMs: 20_000 }, { scope: "main", onUpdate });
    expect(outcome).toMatchObject({ kind: "result", text: "one\ntwo" });
    expect(seen.map((update) => update.text)).toEqual(["one\n", "one\ntwo\n"]);
    expect(seen).toEqual((outcome as { updates: ToolUpdate[] }).updates);
    await instance.dispose();
  });

  it("is never called by the test adapter that reports updates only with the outcome (the kit's fallback)", async () => {
    const instance = await createNoProgressAdapter().start({ env: currentScenario().env, config: {}, cwd: currentScenario().cwd });
    const seen: ToolUpdate[] = [];
    const outcome = await instance.call("exec", { command: "echo one" }, { scope: "main", onUpdate: (update) => void seen.push(update) });
    expect(outcome).toMatchObject({ kind: "result", text: "one", updates: [{ text: "one\n" }] });
    expect(seen).toEqual([]);
    await instance.dispose();
  });
});
