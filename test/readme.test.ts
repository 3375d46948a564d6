// The README's settings table is rendered from the one settings table, never written by hand.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { describeSettingsTable } from "../src/engine/settings.js";

it("shows the settings table exactly as the settings module renders it", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const section = /<!-- settings-table:start -->\n([\s\S]*?)\n<!-- settings-table:end -->/.exec(readme)?.[1];
  expect(section).toBe(describeSettingsTable());
});

it("starts with the install-and-conformance command and the test command", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  expect(firstBlock).toContain("npm install && npm run conformance");
  expect(firstBlock).toContain("npm test");
});
