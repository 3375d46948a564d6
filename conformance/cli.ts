// The kit's command line: runs the conformance features against an implementation and writes the reports.
import { loadConfiguration, loadSources, runCucumber } from "@cucumber/cucumber/api";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compareMain } from "./compare-cli.js";
import { candidateFeatureFiles } from "./feature-candidates.js";
import { adapterNameFromEnvironment, expectAdapterName } from "./load-adapter.js";
import { renderChapterSummary, renderFailedRules } from "./report/chapter-summary.js";
import { headlineSentence } from "./report/report-text.js";
import { writeComplianceReport } from "./report/write-compliance-report.js";
import { DEFAULT_CALL_TIMEOUT_MS, TIMER_MAX_MS } from "./load-adapter.js";
import catalog from "./catalog/rules.json" with { type: "json" };
import type { RuleEntry } from "./catalog/spec-rules.js";
import { readDivergences, type Divergences } from "./report/divergences.js";
import { makeTempFolder, removeTempFolder } from "./temp-folders.js";
import { useLeanWorkMessages } from "./lean-work-messages.js";
import { NEWEST_EDITION, documentedTagExpression, findEdition, type Edition } from "./catalog/editions.js";

/** The package root: the nearest folder above this module that holds the features (works from dist/ too). */
const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
/** The step definitions beside this module: TypeScript loaded through tsx in the repository, compiled in the kit. */
const STEPS_DIR = fileURLToPath(new URL("../step-definitions", import.meta.url));
const STEP_IMPORTS = import.meta.url.endsWith(".ts")
  ? [join(STEPS_DIR, "support/register-tsx.mjs"), join(STEPS_DIR, "**/*.ts")]
  : [join(STEPS_DIR, "**/*.js")];

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "features")) && existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return resolve(start, "..");
  }
}

/** The console formatter (scenario progress, then cucumber's summary), next to this module in source and in dist/. */
const PROGRESS_FORMATTER = join(dirname(fileURLToPath(import.meta.url)), `report/progress-formatter${extname(fileURLToPath(import.meta.url))}`);

/** The cucumber plugin that starts the @slow scenarios first, next to this module in the repository and in the kit. */
const SLOW_FIRST_PLUGIN = new URL("./slow-first-order.mjs", import.meta.url).href;

/** SPEC §0.4 / §0.8 item 2. */
export const LEVEL_TAGS = { documented: "@doc", compatibility: "@doc or @legacy-doc", reference: "" } as const;
export type Level = keyof typeof LEVEL_TAGS;

const USAGE = `Usage: exec-process-conformance [options]
       exec-process-conformance compare <report-dir>... --out <dir>   (several runs side by side)

  --adapter <module>     a module whose default export returns a ConformanceAdapter (default: the reference)
  --command "<cmd>"      an implementation speaking the stdio protocol (conformance/PROTOCOL.md)
  --mcp "<cmd>"          an MCP server over stdio offering exec and process (e.g. "npx exec-process-mcp"); the kit
                         appends --cwd, --config and --no-events-in-results (and --watch-tool, --dedupe-window-ms
                         with the capabilities watch, dedupe in CONFORMANCE_CAPABILITIES), and needs @modelcontextprotocol/sdk
  --level <level>        documented (@doc) | compatibility (@doc or @legacy-doc) | reference (all scenarios,
                         @upstream and @reference included; the default)
  --edition <edition>    the documentation edition level Documented stands for: newest (the default), or an older
                         one (ja, sv, tl): the kit counts the rules that edition states (the others show as "not in
                         this edition") and speaks its names (timeout, PI_BASH_*, tools.exec.timeoutSec)
                         (INTERPRETING.md, Editions)
  --tags "<expr>"        an extra cucumber tag expression, e.g. "not @slow"
  --parallel <n>         worker processes (default: 4 per core, at most 8; scenarios mostly wait on commands);
                         with one (--parallel 1, or one scenario selected) scenarios run in the kit's own process
  --report <dir>         write cucumber.html, junit.xml, messages.ndjson and the compliance matrix there
  --call-timeout <ms>    per-call timeout for stdio implementations (default 60000, above the 30 s poll clamp)
  --tolerance <ms>       upper-bound timing tolerance T (default 500)
  --retry <n>            run a failed scenario again up to n times (default 0)
  --reuse                with --command: one implementation process per worker for its scenarios, one after
                         another, when the implementation answers "reusable" (PROTOCOL.md, reuse); with --mcp:
                         "<cmd> --in-turn" serves a worker's MCP sessions one after another, for a server that
                         speaks exec-process-mcp's in-turn framing (conformance/adapters/mcp-reuse.ts)
  --paths <glob>         feature files to run (default: all)
  --divergences <file>   JSON {"RULE-ID": "note"}: failed rules with a note show as "diverges (explained)"
  --help`;

export interface CliOptions {
  adapter?: string;
  command?: string;
  /** --mcp: an MCP server command (adapters/mcp-client.ts). */
  mcp?: string;
  level: Level;
  /** --edition: what level Documented stands for (conformance/catalog/editions.ts). */
  edition: Edition;
  tags?: string;
  parallel: number;
  report?: string;
  callTimeoutMs: number;
  toleranceMs: number;
  retry: number;
  /** --reuse: keep a --command implementation's process (PROTOCOL.md), or an --mcp server's, across a worker's scenarios. */
  reuse: boolean;
  paths?: string[];
  /** A JSON file of known divergences, rule id → note (conformance/report/divergences.ts). */
  divergences?: string;
}

export function parseCli(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      adapter: { type: "string" }, command: { type: "string" }, mcp: { type: "string" }, level: { type: "string" }, tags: { type: "string" },
      parallel: { type: "string" }, report: { type: "string" }, "call-timeout": { type: "string" },
      tolerance: { type: "string" }, retry: { type: "string" }, paths: { type: "string", multiple: true }, help: { type: "boolean" }, reuse: { type: "boolean" },
      divergences: { type: "string" }, edition: { type: "string" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const level = (values.level ?? "reference") as Level;
  if (!(level in LEVEL_TAGS)) throw new Error(`--level must be documented, compatibility or reference (got "${level}").`);
  if (values.edition !== undefined && values.edition !== NEWEST_EDITION.id && level !== "documented") {
    throw new Error(`--edition ${values.edition} selects what level Documented means: give it with --level documented.`);
  }
  if ([values.adapter, values.command, values.mcp].filter(Boolean).length > 1) throw new Error("Give one of --adapter, --command and --mcp.");
  const options: CliOptions = {
    level,
    edition: findEdition(values.edition ?? NEWEST_EDITION.id),
    parallel: values.parallel === undefined ? defaultParallel() : positiveInteger("--parallel", values.parallel),
    callTimeoutMs: delayMs("--call-timeout", values["call-timeout"] ?? String(DEFAULT_CALL_TIMEOUT_MS)),
    toleranceMs: delayMs("--tolerance", values.tolerance ?? "500"),
    retry: values.retry === undefined ? 0 : positiveInteger("--retry", values.retry),
    reuse: values.reuse === true,
  };
  if (values.adapter) options.adapter = resolve(values.adapter);
  if (values.command) options.command = values.command;
  if (values.mcp) options.mcp = values.mcp;
  if (values.tags) options.tags = values.tags;
  if (values.report) options.report = resolve(values.report);
  if (values.paths) options.paths = values.paths.map(resolveFeaturePath);
  if (values.divergences) options.divergences = resolve(values.divergences);
  return options;
}

/**
 * A --paths entry: relative to the current directory, else to the kit's folder or to its features folder (so
 * `features/x.feature` and `x.feature` both work from anywhere). A glob is taken relative to the current directory.
 */
export function resolveFeaturePath(path: string): string {
  const file = path.replace(/(:\d+)+$/, "");
  const suffix = path.slice(file.length);
  if (/[*?[{]/.test(file) || existsSync(resolve(file))) return resolve(path);
  for (const base of [PACKAGE_ROOT, join(PACKAGE_ROOT, "features")]) {
    if (existsSync(resolve(base, file))) return `${resolve(base, file)}${suffix}`;
  }
  throw new Error(`--paths ${path}: no such file relative to the current directory (${process.cwd()}), to the kit's folder `
    + `(${PACKAGE_ROOT}) or to its features (${join(PACKAGE_ROOT, "features")}).`);
}

/** Most scenarios wait on sleeping commands, not on the CPU: four workers per core, at most eight. */
export function defaultParallel(cores = availableParallelism()): number {
  return Math.min(8, 4 * cores);
}

function positiveInteger(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a whole number of at least 1 (got "${value}").`);
  return n;
}

/** A number of ms that reaches a timer: at most TIMER_MAX_MS, since a longer timer fires after 1 ms. */
function delayMs(flag: string, value: string): number {
  const n = positiveInteger(flag, value);
  if (n > TIMER_MAX_MS) {
    throw new Error(`${flag} takes at most ${TIMER_MAX_MS} ms (about 24.8 days), the longest delay a Node.js timer can wait (got "${value}").`);
  }
  return n;
}

export function tagExpression(level: Level, extra: string | undefined, edition: Edition = NEWEST_EDITION): string {
  const levelTags = level === "documented" ? documentedTagExpression(edition) : LEVEL_TAGS[level];
  const parts = [levelTags, extra].filter((part): part is string => Boolean(part));
  return parts.map((part) => `(${part})`).join(" and ");
}

/** Runs the suite; resolves to true when every selected scenario passed. `messagesDir` gets messages.ndjson. */
export async function runConformance(options: CliOptions, messagesDir = options.report): Promise<boolean> {
  if (options.adapter) process.env["CONFORMANCE_ADAPTER"] = options.adapter;
  if (options.mcp) process.env["CONFORMANCE_MCP_COMMAND"] = options.mcp;
  if (options.command || options.mcp) process.env["CONFORMANCE_COMMAND_CWD"] ??= process.cwd();
  if (options.command) {
    process.env["CONFORMANCE_COMMAND"] = options.command;
    // Workers run in the package folder: a relative --command is meant from where the kit was started.
    process.env["CONFORMANCE_COMMAND_CWD"] ??= process.cwd();
  }
  process.env["CONFORMANCE_CALL_TIMEOUT_MS"] = String(options.callTimeoutMs);
  if (options.reuse) process.env["CONFORMANCE_REUSE"] = "1";
  const files: Record<string, string> = {};
  if (options.report) {
    mkdirSync(options.report, { recursive: true });
    files[join(options.report, "cucumber.html")] = "html";
    files[join(options.report, "junit.xml")] = "junit";
  }
  if (messagesDir) files[join(messagesDir, "messages.ndjson")] = "message";
  const tags = tagExpression(options.level, options.tags, options.edition);
  const { runConfiguration } = await loadConfiguration({
    file: false,
    provided: {
      paths: options.paths ?? defaultFeaturePaths(tags),
      import: STEP_IMPORTS,
      tags,
      parallel: options.parallel,
      plugin: [SLOW_FIRST_PLUGIN],
      retry: options.retry,
      worldParameters: { toleranceMs: options.toleranceMs, edition: options.edition.id },
      format: [PROGRESS_FORMATTER, ...Object.entries(files).map(([path, format]) => `${format}:${path}`)],
    },
  }, { cwd: PACKAGE_ROOT });
  const { plan } = await loadSources(runConfiguration.sources, { cwd: PACKAGE_ROOT });
  if (plan.length === 0) throw new NothingSelectedError(runConfiguration.sources.paths, runConfiguration.sources.tagExpression);
  // Never more workers than scenarios: each worker is a process that loads the kit and the implementation. One
  // worker is this process (cucumber's parallel 0), which has loaded most of the kit already.
  const workers = Math.min(runConfiguration.runtime.parallel, plan.length);
  runConfiguration.runtime.parallel = workers === 1 ? 0 : workers;
  if (workers > 1) useLeanWorkMessages();
  // The first line within a second or two of the start (issue 37): loading the implementation can take a while.
  const featureCount = new Set(plan.map(({ uri }) => uri)).size;
  console.log(`Selected ${plan.length} scenario${plan.length === 1 ? "" : "s"} from ${featureCount} feature file${featureCount === 1 ? "" : "s"}; `
    + `starting ${workers} worker${workers === 1 ? "" : "s"} and the implementation…`);
  // runCucumber parses the features again: only the files that hold a selected scenario, at the selected lines.
  runConfiguration.sources.paths = plannedPaths(plan);
  const { success } = await runCucumber(runConfiguration, { cwd: PACKAGE_ROOT });
  return success;
}

/**
 * All the kit's feature files, or, when the tags narrow the run, only those that can hold a selected scenario: cucumber
 * parses whatever it is given, and the report parses the others anyway (feature-candidates.ts). When none can, all of
 * them, so that cucumber says that nothing was selected.
 */
function defaultFeaturePaths(tags: string): string[] {
  const dir = join(PACKAGE_ROOT, "features");
  const all = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".feature")).sort()
    .map((name) => join(dir, name));
  const candidates = candidateFeatureFiles(all, tags);
  return candidates.length > 0 ? candidates : all;
}

/** `file:line:line…` of each feature file with a planned scenario: the plan again, read from its files only. */
function plannedPaths(plan: ReadonlyArray<{ uri: string; location: { line: number } }>): string[] {
  const lines = new Map<string, number[]>();
  for (const { uri, location } of plan) lines.set(uri, [...(lines.get(uri) ?? []), location.line]);
  return [...lines].map(([uri, at]) => [resolve(PACKAGE_ROOT, uri), ...at].join(":"));
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === "compare") return compareMain(argv.slice(1));
  let options: CliOptions;
  try {
    options = parseCli(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  let divergences: Divergences | undefined;
  try {
    divergences = options.divergences ? readDivergences(options.divergences, catalog as RuleEntry[]) : undefined;
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  // Without --report the matrix is still built, in a temporary folder, for the chapter table; a signal that ends
  // the kit removes it too (temp-folders.ts).
  const reportDir = options.report ?? makeTempFolder("exec-conformance-report-");
  // The workers that load the adapter say its name there, for the report (load-adapter.ts, recordAdapterName).
  const nameFolder = makeTempFolder("exec-conformance-name-");
  expectAdapterName(join(nameFolder, "adapter-name"));
  try {
    let success: boolean;
    try {
      success = await runConformance(options, reportDir);
    } catch (error) {
      if (!(error instanceof NothingSelectedError)) throw error;
      console.error(error.message);
      return 2;
    }
    let written: ReturnType<typeof writeComplianceReport>;
    try {
      written = writeComplianceReport(reportDir, {
        cwd: PACKAGE_ROOT, featuresDir: join(PACKAGE_ROOT, "features"), tagExpression: tagExpression(options.level, options.tags, options.edition),
        edition: options.edition,
        adapterName: await adapterNameFromEnvironment(), partial: options.tags !== undefined || options.paths !== undefined,
        ...(divergences ? { divergences } : {}),
      });
    } catch (error) {
      console.error(`Could not write the compliance matrix: ${(error as Error).message}`);
      return 2;
    }
    console.log(`\n${renderChapterSummary(written.matrix)}\n`);
    const failedRules = renderFailedRules(written.matrix);
    if (failedRules) console.log(`${failedRules}\n`);
    if (options.report) {
      console.log(`Conformance report written to ${options.report}:`);
      for (const path of reportPaths(options.report, written)) console.log(`  ${path}`);
      console.log(`Compliance matrix: ${written.markdownPath} (${lowerFirst(headlineSentence(written.matrix))})`);
    } else {
      console.log(headlineSentence(written.matrix));
      console.log("No report was kept: give --report <dir> for compliance.md, documentation.html and the other reports.");
    }
    return success ? 0 : 1;
  } finally {
    removeTempFolder(nameFolder);
    if (!options.report) removeTempFolder(reportDir);
  }
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** Every file the run wrote into the report folder: cucumber's, then the compliance report's. */
function reportPaths(reportDir: string, written: ReturnType<typeof writeComplianceReport>): string[] {
  return [
    join(reportDir, "cucumber.html"), join(reportDir, "junit.xml"), join(reportDir, "messages.ndjson"),
    written.markdownPath, written.htmlPath, written.jsonPath, written.specPath, written.scenariosPath, written.documentationPath,
  ];
}

/** A run that would select no scenario: an error, never a silent success. */
export class NothingSelectedError extends Error {
  override name = "NothingSelectedError";
  constructor(paths: readonly string[], tags: string) {
    super(`No scenario selected: the paths ${paths.map((path) => JSON.stringify(path)).join(", ")} (absolute, or relative to `
      + `the kit's folder ${PACKAGE_ROOT}) with the tag expression ${JSON.stringify(tags || "(none)")} match no scenario. `
      + "Check --paths (relative to the current directory or to the kit's features folder), --tags and --level.");
  }
}
