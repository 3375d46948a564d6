// mcp/cli.ts: the server's entry. zod parses without compiling a parser per schema there (jitless): a short stdio
// session never earns the compilation back (issue 36: 178 → 160 ms of CPU per short server lifetime).
import { afterEach, expect, it, vi } from "vitest";
import { main } from "../../mcp/cli.js";

const zodConfig = (globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig;
const jitlessBefore = zodConfig?.jitless;
afterEach(() => {
  if (zodConfig) zodConfig.jitless = jitlessBefore; // this worker's other files keep zod as they found it
  vi.restoreAllMocks();
});

it("switches zod to parsing without compiled parsers when it starts", async () => {
  if (zodConfig) zodConfig.jitless = false;
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  expect(await main(["--version"])).toBe(0);
  expect((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig?.jitless).toBe(true);
});
