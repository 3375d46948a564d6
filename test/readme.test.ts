// The README's settings table and the container executor's table are rendered from code, never written by hand; its
// process reference covers every action and parameter.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { INVALID_ACTION, STDIN_NOT_WRITABLE_HINT } from "../src/engine/messages.js";
import { describeSettingsTable } from "../src/engine/settings.js";
import { describeContainerTable } from "../src/executors/container/container-options.js";
import { processSchema } from "../src/tool-spec/schemas.js";

it("shows the settings table exactly as the settings module renders it", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const section = /<!-- settings-table:start -->\n([\s\S]*?)\n<!-- settings-table:end -->/.exec(readme)?.[1];
  expect(section).toBe(describeSettingsTable());
});

it("shows the container executor's defaults and refusals exactly as its options module renders them", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const section = /<!-- container-table:start -->\n([\s\S]*?)\n<!-- container-table:end -->/.exec(readme)?.[1];
  expect(section).toBe(describeContainerTable());
});

it("starts with the install-and-conformance command and the test command", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  expect(firstBlock).toContain("npm install && npm run conformance");
  expect(firstBlock).toContain("npm test");
});

it("has a process reference with a row for every action, naming every parameter of the process schema", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const section = /## `process` reference\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? "";
  const rows = new Map([...section.matchAll(/^\| `([a-z-]+)` \| ([^|]*) \| (yes)? *\|/gm)].map((row) => [row[1]!, { params: row[2]!, pty: row[3] === "yes" }]));
  const actions = INVALID_ACTION.replace(/^.*Expected one of: /, "").split(", ");
  expect([...rows.keys()]).toEqual(actions);
  expect([...rows].filter(([, row]) => row.pty).map(([action]) => action)).toEqual(["write", "send-keys", "submit", "paste"]);
  const named = new Set([...rows.values()].flatMap((row) => [...row.params.matchAll(/`(\w+)`/g)].map((match) => match[1]!)));
  expect(Object.keys(processSchema.shape).filter((field) => field !== "action" && !named.has(field))).toEqual([]);
  expect(section).toContain(STDIN_NOT_WRITABLE_HINT);
});
