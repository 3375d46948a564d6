#!/usr/bin/env node
// `npm test`: type check, unit tests (vitest), then the conformance suite against the reference implementation,
// in-process and over stdio. Ends with one plain line `total: N passed, N failed` (TOOLCHAIN.md, CI closing line).
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONTAINER_SUBSET } from "./conformance-through-host.mjs";
import { podmanUnavailableReason } from "./podman-service.mjs";
import { runStep } from "./step-watch.mjs";
import { loadOfOthers, testPlan } from "./test-plan.mjs";
import { failedTests, firstErrorLine, testsPassedOnRetry } from "./vitest-report.mjs";
import { LINT_FAILED, TYPECHECK_FAILED } from "./typecheck-and-lint.mjs";

const reports = "reports/test";
/** The nice value of the unit tests (below). */
const UNIT_TESTS_PRIORITY = -5;
/**
 * Every vitest run retries a failed test once, as the kit's runs retry a scenario: a timing hiccup of a loaded machine
 * passes the second time, a real failure fails twice. The totals count and name the tests that passed only on retry.
 */
const RETRY_ONCE = "--retry=1";
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
// Workers per run and the timing tolerance T (SPEC §0.8) follow the machine's cores and the work of others running
// now (scripts/test-plan.mjs); each can be forced by its environment variable (README, Development).
const others = await loadOfOthers();
const plan = testPlan({ load: others.load });
const busyNow = others.ownInstall ? "the system packages installing beside it (not counted)" : `${plan.load.toFixed(1)} busy with other work`;
console.log(`npm test on ${plan.cores} cores, ${busyNow}: ${plan.inProcess} in-process, `
  + `${plan.stdio} stdio, ${plan.throughHost} through-host, ${plan.mcp} MCP, ${plan.sessionHost} session-host and ${plan.vitest} vitest `
  + `workers; T ${plan.toleranceMs} ms`);
const parallel = String(plan.inProcess);
const stdioParallel = String(plan.stdio);
const tolerance = String(plan.toleranceMs);
const tally = { passed: 0, failed: 0, retried: 0 };
/** Which scenarios those were, so that a timing bound that needs a look is named, not just counted. */
const retriedNames = [];
/** The unit and security runs' failed tests, named above the totals. */
const failedNames = [];
/** What each step of run() printed, by its label. */
const stepOutputs = new Map();
const lines = [];

/**
 * The longest a step may run before it is named and ended with its processes (scripts/step-watch.mjs): CI once
 * waited out its 90 minutes on a step that never ended (issue 36). A whole run takes 6 to 11 minutes here; a machine
 * several times slower still passes, and two steps that each wait for the other's end (the last runs wait for the
 * conformance runs or the unit tests) still end within CI's 90 minutes.
 */
const STEP_DEADLINE_MS = 30 * 60_000;
/** The labels of the steps that did not end by themselves; what was found and ended is named above the totals. */
const unended = new Set();

// Runs a step with its output shown live and kept, to be searched for PTY write errors; resolves to whether it
// passed, or with `status` to its exit status. `priority`: its nice value, where the user may set it.
async function run(label, command, args, { status: wantStatus = false, priority } = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  let output = "";
  const onOutput = (chunk, stream) => {
    (stream === "stdout" ? process.stdout : process.stderr).write(chunk);
    output += chunk;
  };
  const { status, problem } = await runStep(command, args, { onOutput, priority, deadlineMs: STEP_DEADLINE_MS });
  stepOutputs.set(label, output);
  findPtyWriteErrors(label, output);
  noteUnended(label, problem);
  console.log(`=== ${label}: exit ${status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (wantStatus) return problem === undefined ? status : 1; // an ended step's checks all fail
  return status === 0 && problem === undefined;
}

function noteUnended(label, problem) {
  if (problem === undefined) return;
  unended.add(label);
  failedNames.push(`${label}: ${problem}`);
  console.log(`=== ${label}: ${problem}`);
}

// node-pty prints this when a write reaches a terminal that is gone (issue 9): any occurrence fails the run.
const PTY_WRITE_ERROR = "Unhandled pty write error";
const ptyWriteErrors = [];

function findPtyWriteErrors(label, output) {
  const found = output.split(PTY_WRITE_ERROR).length - 1;
  if (found > 0) ptyWriteErrors.push(`${label}: "${PTY_WRITE_ERROR}" printed ${found} time(s)`);
}

function count(label, passed, failed, passedOnlyOnRetry = 0) {
  tally.passed += passed;
  tally.failed += failed;
  tally.retried += passedOnlyOnRetry;
  const retried = passedOnlyOnRetry > 0 ? ` (${passedOnlyOnRetry} of them only on retry)` : "";
  lines.push(`${label}: ${passed} passed${retried}, ${failed} failed`);
}

// The conformance runs go side by side with the unit tests: all of them mostly wait on sleeping commands and timers,
// so together they take little more than the longest of them. Conformance is counted from the junit report of each
// run. Over stdio the reference runs as a separate program (conformance/PROTOCOL.md); its per-call timeout must
// exceed the longest legitimate call, the 30 s poll clamp. The stdio run reuses one server process per worker
// (PROTOCOL.md, reuse): a fresh process per scenario is what the discrimination and stdio tests check, and a start
// costs about 0.4 s of CPU, which 1100 scenarios would spend again. Each run's output goes to its log file; a failed
// run's summary is printed.
const stdioServer = `"${process.execPath}" "${resolve("conformance/stdio-server.mjs")}"`;
const inProcessRun = ["conformance (in-process)", ["--parallel", parallel]];
const stdioRun = ["conformance (stdio)", ["--parallel", stdioParallel, "--reuse", "--command", stdioServer, "--call-timeout", "60000"]];
// Issue 13: the exec and process features again, every call sent to the real sandbox and SSH executors
// (scripts/conformance-through-host.mjs: excluded rules and reasons; it skips with the reason when bwrap or sshd is
// missing). CONFORMANCE_THROUGH_HOST=0 leaves these runs out.
const throughHostFeatures = ["exec_parameters", "exec_lifecycle", "exec_results", "process_actions", "poll", "log", "list",
  "input", "pty", "termination"].flatMap((name) => ["--paths", `features/${name}.feature`]);
const throughHostParallel = String(plan.throughHost);
// Issue 21: through the container executor (a private dockerd that the script starts and stops, with no network),
// the subset of features where containers differ most from a local run, for CPU (CONTAINER_SUBSET.reason).
const containerFeatures = CONTAINER_SUBSET.features.flatMap((name) => ["--paths", `features/${name}.feature`]);
const throughHostRuns = process.env.CONFORMANCE_THROUGH_HOST === "0" ? [] : [
  ...["node", "sandbox"].map((host) => [
    `conformance (through ${host})`, ["--parallel", throughHostParallel, ...throughHostFeatures],
    ["scripts/conformance-through-host.mjs", host],
  ]),
  ["conformance (through container)", ["--parallel", throughHostParallel, ...containerFeatures], ["scripts/conformance-through-host.mjs", "container"]],
];

// Issue 22: the same features and the notifications, with the kit as an MCP client of exec-process-mcp
// (scripts/conformance-mcp.mjs: excluded rules and reasons). Its server loads dist/, so it starts after the build;
// each worker keeps server processes that serve its scenarios' MCP sessions in turn, each session with its own
// environment, cwd and config (exec-process-mcp --in-turn, issue 36). CONFORMANCE_MCP=0 leaves it out.
const mcpFeatures = [...throughHostFeatures, "--paths", "features/notifications.feature"];
const mcpRuns = process.env.CONFORMANCE_MCP === "0" ? [] : [[
  "conformance (MCP)", ["--parallel", String(plan.mcp), ...mcpFeatures], ["scripts/conformance-mcp.mjs"],
]];

// Issue 33: the same features and the notifications through a session host in another process
// (scripts/conformance-session-host.mjs: what it leaves out and why). CONFORMANCE_SESSION_HOST=0 leaves it out.
const sessionHostRuns = process.env.CONFORMANCE_SESSION_HOST === "0" ? [] : [[
  "conformance (through a session host)", ["--parallel", String(plan.sessionHost), ...mcpFeatures], ["scripts/conformance-session-host.mjs"],
]];

// 1. Build (one check: dist/ and the kit's package in packages/conformance/), with the type check and then the lint
// beside it (one check each; neither needs dist/). Every kit run waits for the build: the repository's kit, its
// stdio server and the MCP server run compiled from dist/ while it matches the sources, at half the CPU of a start
// through tsx, and the build empties dist/ first.
// It skips its own type check (--no-check): the type check beside it covers the same files and counts their errors.
const buildRun = run("build", "node", ["scripts/build.mjs", "--no-check"]);
// The type check and the type-aware lint (issue 24: eslint.config.mjs, failed by any finding) over one TypeScript
// program, which each built and checked for itself before (issue 36); one check each, told apart by the exit status.
const checks = run("typecheck and lint", "node", ["scripts/typecheck-and-lint.mjs"], { status: true }).then((status) => ({
  typed: status === 0 || status === LINT_FAILED, linted: status === 0 || status === TYPECHECK_FAILED,
}));
const built = await buildRun;

// 2. Once dist/ is built: the conformance runs and the unit tests (counted from vitest's JSON report). The runs that
// need system packages (bwrap, sshd, dockerd, Podman, chromium: the unit tests and the executors' passes) wait for
// .ci/run's installs, which it starts in the background (issue 36); the others start at once.
const packagesReady = systemPackagesReady();
const inProcessDone = conformanceRun(inProcessRun);
const throughHostDone = packagesReady.then(() => Promise.all(throughHostRuns.map(conformanceRun)));
const stdioDone = conformanceRun(stdioRun);
const mcpAndSessionHostDone = [...mcpRuns, ...sessionHostRuns].map(conformanceRun);
const lateRuns = [stdioDone, ...mcpAndSessionHostDone];
const vitestJson = join(reports, "vitest.json");
// The unit tests are the run's longest step, and the conformance passes end before them: the unit tests get a higher
// CPU priority where that is permitted (root), so that the passes yield to them (issue 36; at -10 the passes and the
// Podman run after them ended later). Their workers, started later, inherit it.
const unitRun = packagesReady.then(() => run(
  "unit tests", "npx", ["vitest", "run", RETRY_ONCE, `--maxWorkers=${plan.vitest}`, "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`],
  { priority: UNIT_TESTS_PRIORITY },
));
// The last runs start once the unit tests are done, or the conformance runs other than the two longest (in-process
// and over stdio, which hold the 60 s scenarios), whichever is first: the whole run keeps both cores busy, and these
// repeat tests of the unit run. Started after every conformance run, their last minute left a core idle (issue 36).
const tailStarts = Promise.race([unitRun, Promise.all([throughHostDone, ...mcpAndSessionHostDone])]);
// Issue 20: the attacks on the executors (test/security) again as a plain user; the unit run is root's in CI. Issue 32:
// and the attacks on the MCP server; issue 33, on the session host. The container attacks need an engine a plain user may drive, which CI has not
// (its dockerd and Podman service are root's, and rootless Podman on cgroup v1 enforces no resource limits).
const securityDir = join(reports, "security-unprivileged");
// They run at the unit tests' priority, as the same attacks do there: since they start while the in-process and stdio
// passes still run, the SSH attack on a stalled connection once saw its dispose's fresh connection miss the dispose's
// deadline on the crowded cores, and its sleepers outlive it (issue 36).
const securityRun = tailStarts.then(() => run("security tests (unprivileged)", "node", [
  "scripts/as-unprivileged.mjs", "--out", securityDir, "--", "./node_modules/.bin/vitest", "run", RETRY_ONCE, "test/security",
  "test/attacks/mcp-server.test.ts", "test/attacks/session-host.test.ts",
  "--reporter=default", "--reporter=json", "--outputFile.json={out}/vitest.json",
], { priority: UNIT_TESTS_PRIORITY }));
// Issue 21: the container executor's tests (results, limits, lifecycle, the security checks) again, against Podman's
// Docker-compatible socket (a private Podman service that scripts/podman-service.mjs starts and stops) instead of
// dockerd. CONTAINER_PODMAN=0 leaves them out; where Podman cannot run, their line says why.
const PODMAN_TEST_FILES = ["test/executors/container-executor.test.ts", "test/executors/container-pool.test.ts", "test/security/container.test.ts",
  "test/attacks/container.test.ts", "test/attacks/container-engine-stop.test.ts"];
const podmanDir = join(reports, "container-tests-podman");
await packagesReady;
const podmanSkip = process.env.CONTAINER_PODMAN === "0" ? "CONTAINER_PODMAN=0" : podmanUnavailableReason();
if (!podmanSkip) mkdirSync(podmanDir, { recursive: true });
const podmanRun = podmanSkip ? undefined : tailStarts.then(() => run(
  "container tests (Podman)", "node", ["scripts/podman-service.mjs", "./node_modules/.bin/vitest", "run", RETRY_ONCE, ...PODMAN_TEST_FILES,
    "--reporter=default", "--reporter=json", `--outputFile.json=${join(podmanDir, "vitest.json")}`],
));
const { typed, linted } = await checks;
count("typecheck", typed ? 1 : 0, typed ? 0 : 1);
count("lint", linted ? 1 : 0, linted ? 0 : 1);
count("build", built ? 1 : 0, built ? 0 : 1);
/**
 * Resolves once the system packages are there: at once, unless .ci/run installs them in the background and names in
 * CI_SYSTEM_PACKAGES the file where the install's exit status lands (its log beside it, `.log`).
 */
async function systemPackagesReady() {
  const statusFile = process.env.CI_SYSTEM_PACKAGES;
  if (!statusFile) return;
  const started = Date.now();
  let announced = false;
  while (!existsSync(statusFile)) {
    if (!announced) console.log("\n=== waiting for the system packages that .ci/run installs in the background");
    announced = true;
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
  }
  const status = readFileSync(statusFile, "utf8").trim();
  console.log(`\n=== system packages: install ${status === "0" ? "done" : `failed (exit ${status})`} `
    + `${announced ? `after ${((Date.now() - started) / 1000).toFixed(1)} s of waiting` : "before it was needed"}`);
  if (status !== "0" && existsSync(`${statusFile}.log`)) console.log(readFileSync(`${statusFile}.log`, "utf8").split("\n").slice(-30).join("\n"));
}

async function conformanceRun([label, extra, launcher = ["conformance/bin.mjs"]]) {
  const dir = join(reports, label.replace(/\W+/g, "-"));
  mkdirSync(dir, { recursive: true });
  const log = join(dir, "output.log");
  console.log(`\n=== ${label}: started, output in ${log}`);
  const started = Date.now();
  // One retry absorbs a timing hiccup of a loaded machine; a real failure fails twice.
  // Through an executor every call also pays its start and end (bwrap, an SSH channel, a runc exec): twice T there.
  const runTolerance = launcher[0] === "scripts/conformance-through-host.mjs" ? String(2 * Number(tolerance)) : tolerance;
  const status = await runToFile(label, "node", [...launcher, "--tolerance", runTolerance, "--retry", "1", "--report", dir, ...extra], log);
  console.log(`=== ${label}: exit ${status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { label, dir, log, ok: status === 0 };
}
// Reported in the order in-process, stdio, MCP, through a session host, through the executors' hosts.
const inProcess = await inProcessDone;
const throughHost = await throughHostDone;
const results = [inProcess, ...(await Promise.all(lateRuns)), ...throughHost];
const unitOk = await unitRun;
countVitest("unit tests", unitOk, vitestJson);
countVitest("security tests (unprivileged)", await securityRun, join(securityDir, "vitest.json"));
if (podmanRun) countVitest("container tests (Podman)", await podmanRun, join(podmanDir, "vitest.json"));
else lines.push(`container tests (Podman): skipped (${podmanSkip})`);

function countVitest(label, ok, file) {
  if (!existsSync(file)) {
    if (!unended.has(label)) failedNames.push(`${label}: wrote no report: ${firstErrorLine(stepOutputs.get(label) ?? "")}`);
    return count(label, 0, 1);
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  const retried = testsPassedOnRetry(report, process.cwd());
  const failedOutsideTests = !ok && report.numFailedTests === 0;
  count(label, report.numPassedTests, report.numFailedTests + (failedOutsideTests ? 1 : 0), retried.length);
  for (const name of retried) retriedNames.push(`${label}: ${name}`);
  for (const failure of failedTests(report, process.cwd())) failedNames.push(`${label}: ${failure}`);
  if (failedOutsideTests && !unended.has(label)) failedNames.push(`${label}: failed outside its tests: ${firstErrorLine(stepOutputs.get(label) ?? "")}`);
}

for (const { label, dir, log, ok } of results) {
  const junit = join(dir, "junit.xml");
  findPtyWriteErrors(label, readFileSync(log, "utf8"));
  if (!ok) console.log(`\n--- ${label}: end of ${log}\n${readFileSync(log, "utf8").split("\n").slice(-60).join("\n")}`);
  const skipped = ok && !existsSync(junit) && /skipped: /.test(readFileSync(log, "utf8"));
  if (skipped) {
    lines.push(`${label}: skipped (${readFileSync(log, "utf8").trim().split("\n").pop()})`);
  } else if (existsSync(junit)) {
    const { passed, failed } = junitCounts(readFileSync(junit, "utf8"));
    count(label, passed, failed + (ok || failed > 0 ? 0 : 1), passedOnlyOnRetry(dir));
    for (const scenario of retriedScenarios(readFileSync(log, "utf8"))) retriedNames.push(`${label}: ${scenario}`);
  } else {
    count(label, 0, 1);
  }
}

/**
 * Scenarios that failed an attempt and passed the retry, from cucumber's summary (`N) Scenario: name (attempt 1,
 * retried) # features/file.feature:line`, and without a last failed attempt, `(attempt 2) # …`).
 */
function retriedScenarios(output) {
  const failedAtLast = new Set([...output.matchAll(/^\d+\) Scenario: .* \(attempt \d+\) # (\S+)$/gm)].map(([, place]) => place));
  return [...output.matchAll(/^\d+\) Scenario: (.*) \(attempt \d+, retried\) # (\S+)$/gm)]
    .filter(([, , place]) => !failedAtLast.has(place)).map(([, name, place]) => `${name} (${place})`);
}

/** From the run's compliance.json (conformance/report): scenarios that failed first and passed on retry. */
function passedOnlyOnRetry(dir) {
  const file = join(dir, "compliance.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).run?.passedOnlyOnRetry ?? 0 : 0;
}

async function runToFile(label, command, args, file) {
  const { status, problem } = await runStep(command, args, { outputFile: file, deadlineMs: STEP_DEADLINE_MS });
  noteUnended(label, problem);
  return problem === undefined ? status : null;
}

function junitCounts(xml) {
  const cases = xml.match(/<testcase\b[\s\S]*?(?:\/>|<\/testcase>)/g) ?? [];
  let passed = 0;
  let failed = 0;
  for (const testcase of cases) {
    if (/<(failure|error)\b/.test(testcase)) failed += 1;
    else if (!/<skipped\b/.test(testcase)) passed += 1;
  }
  return { passed, failed };
}

for (const line of ptyWriteErrors) count(line, 0, 1);
if (failedNames.length > 0) console.log(`\nfailed tests:\n${failedNames.map((name) => `  ${name}`).join("\n")}`);
console.log(`\n${lines.join("\n")}`);
console.log(`retried: ${tally.retried} scenarios and tests passed only on retry (counted as passed above)`);
for (const name of retriedNames) console.log(`  retried once: ${name}`);
console.log(`total: ${tally.passed} passed, ${tally.failed} failed`);
process.exitCode = tally.failed > 0 ? 1 : 0;
