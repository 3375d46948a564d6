// conformance/mcp-exclusions.json: every rule the MCP conformance run leaves out (scripts/conformance-mcp.mjs) is a
// rule of the catalog that a feature of that run tags, with a reason.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import catalog from "../../conformance/catalog/rules.json" with { type: "json" };

const exclusions = JSON.parse(readFileSync(new URL("../../conformance/mcp-exclusions.json", import.meta.url), "utf8")) as {
  rules: Record<string, { reason: string }>;
};
/** The features of the MCP run in scripts/test-all.mjs. */
const FEATURES = ["exec_parameters", "exec_lifecycle", "exec_results", "process_actions", "poll", "log", "list", "input", "pty",
  "termination", "notifications"];
const featureText = FEATURES.map((name) => readFileSync(new URL(`../../features/${name}.feature`, import.meta.url), "utf8")).join("\n");

describe("MCP exclusions", () => {
  it.each(Object.entries(exclusions.rules))("%s is a catalog rule that the run's features tag, with a reason", (id, { reason }) => {
    expect((catalog as Array<{ id: string }>).map((rule) => rule.id)).toContain(id);
    expect(featureText).toMatch(new RegExp(`@${id}(?![\\w-])`));
    expect(reason.length).toBeGreaterThan(40);
  });
});
