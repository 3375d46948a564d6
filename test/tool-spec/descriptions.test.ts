// The tool and parameter descriptions the model reads (src/tool-spec/descriptions.ts: LC-06 … LC-09, LC-14), as the LangChain tools show them.
import { describe, expect, it } from "vitest";
import { jsonSchemaOf, newToolkit, setupToolkitTests } from "../langchain/helpers.js";

setupToolkitTests();

describe("descriptions (LC-06 … LC-09, LC-14)", () => {
  it("LC-06: the exec description is the reference text", () => {
    expect(newToolkit().exec.description).toBe(
      "Run shell now; background continuation supported. Completed calls return command output directly. Use process only when exec reports running with a sessionId; output text alone is not a process handle. Long run: automatic completion wake when enabled and output/failure occurs; otherwise process confirms completion. TTY CLI/UI/coding agent: pty=true. Quote arguments containing shell metacharacters, including URL query strings with `?` or `&`.",
    );
  });

  it("LC-07: the process description is the reference text", () => {
    expect(newToolkit().process?.description).toBe(
      "Control existing exec: list, poll, log, write, send-keys, submit, paste, kill. poll/log: status, output, quiet success, completion without auto-wake, input hints. Others: input/intervention.",
    );
  });

  it("LC-08: in synchronous mode the exec description mentions neither background continuation nor the process tool", () => {
    const description = newToolkit({ processTool: false }).exec.description;
    expect(description).toBe(
      "Run shell now and return the command output when it finishes. TTY CLI/UI/coding agent: pty=true. Quote arguments containing shell metacharacters, including URL query strings with ? or &.",
    );
    expect(description).not.toMatch(/background|process/);
  });

  it("LC-14: the process timeout parameter has the reference description", () => {
    expect(jsonSchemaOf(newToolkit().process).properties["timeout"]?.["description"]).toBe(
      "Poll wait in milliseconds (max 30000 ms, higher values are clamped to 30000). Polling is for on-demand status, not for wait loops.",
    );
  });

  it("LC-09: descriptions carry the documented guidance on process, pty, poll/log, input actions, the wake and no sleep loops", () => {
    const toolkit = newToolkit();
    const exec = toolkit.exec.description;
    const processText = toolkit.process!.description;
    expect(exec).toContain("process");
    expect(exec).toContain("pty");
    expect(processText).toContain("poll");
    expect(processText).toContain("log");
    expect(String(jsonSchemaOf(toolkit.process).properties["timeout"]?.["description"])).toContain("30000");
    const everything = [exec, processText, ...Object.values(jsonSchemaOf(toolkit.exec).properties), ...Object.values(jsonSchemaOf(toolkit.process).properties)]
      .map((entry) => (typeof entry === "string" ? entry : String(entry["description"] ?? "")))
      .join("\n");
    expect(everything).toMatch(/completion wake/);
    for (const action of ["write", "send-keys", "submit", "paste", "kill"]) expect(processText).toContain(action);
    expect(everything).toMatch(/log before resuming an interactive CLI/);
    expect(everything).toMatch(/sleep loops|wait loops/);
    expect(everything).toMatch(/cron/);
  });
});
