// Reads the reports scripts/soak-tests.sh keeps (runs.tsv: run, loaded, exit code, seconds, load before and after;
// run-N.json: vitest's JSON report) and prints one run's line (--run DIR N) or the summary table (--table DIR), which
// exits 1 when any run failed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [mode, dir, runArg] = process.argv.slice(2);
if ((mode !== "--run" && mode !== "--table") || !dir) {
  process.stderr.write("usage: soak-summary.mjs --run DIR N | --table DIR\n");
  process.exit(2);
}

/** One row of runs.tsv with its report's counts and failures. */
function readRun(line) {
  const [run, loaded, code, seconds, loadBefore, loadAfter] = line.split("\t");
  const path = join(dir, `run-${run}.json`);
  const report = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
  const failedFiles = new Map();
  for (const file of report?.testResults ?? []) {
    const failedTests = file.assertionResults.filter((test) => test.status === "failed").map((test) => test.fullName);
    if (file.status === "failed" || failedTests.length > 0) {
      // A file that failed outside any test (a hook, an import, an unhandled error) has a message and no failed test.
      const reasons = failedTests.length > 0 ? failedTests : [firstLine(file.message) || "failed outside a test"];
      failedFiles.set(file.name.replace(/^.*?\/repo\//, ""), reasons);
    }
  }
  const passed = report?.numPassedTests ?? 0;
  const failed = report?.numFailedTests ?? 0;
  const skipped = (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0);
  // A run is red when vitest said so: failed tests, failed files, or errors outside tests (exit code only).
  const ok = code === "0" && report !== undefined && failed === 0 && failedFiles.size === 0;
  return {
    run: Number(run),
    loaded: loaded === "1",
    code,
    seconds: Number(seconds),
    loadBefore,
    loadAfter,
    report,
    passed,
    failed,
    skipped,
    failedFiles,
    ok,
  };
}

function firstLine(text) {
  return (
    (text ?? "")
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim()
      .slice(0, 160) ?? ""
  );
}

function minutes(seconds) {
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

function runLine(r) {
  const verdict = r.ok ? "ok  " : "FAIL";
  const counts = r.report === undefined ? "no report" : `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`;
  return `${verdict} run ${String(r.run).padStart(2)} ${r.loaded ? "loaded  " : "unloaded"} ${minutes(r.seconds).padStart(7)}  exit ${r.code}  load ${r.loadBefore}->${r.loadAfter}  ${counts}`;
}

const runs = readFileSync(join(dir, "runs.tsv"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map(readRun);

if (mode === "--run") {
  const r = runs.find((row) => row.run === Number(runArg));
  if (!r) process.exit(2);
  process.stdout.write(`${runLine(r)}\n`);
  for (const [file, tests] of r.failedFiles) for (const test of tests) process.stdout.write(`       ${file} > ${test}\n`);
  process.exit(0);
}

const lines = ["", "== soak summary", "run  load      duration  exit  passed  failed  skipped  failed files"];
for (const r of runs) {
  const files = [...r.failedFiles.keys()].join(", ") || (r.ok ? "" : "(see the run's log)");
  lines.push(
    [
      String(r.run).padStart(3),
      (r.loaded ? "loaded" : "unloaded").padEnd(9),
      minutes(r.seconds).padStart(8),
      r.code.padStart(5),
      String(r.passed).padStart(7),
      String(r.failed).padStart(7),
      String(r.skipped).padStart(8),
      ` ${files}`,
    ].join(" "),
  );
}
const failures = new Map();
for (const r of runs) {
  for (const [file, tests] of r.failedFiles) {
    const entry = failures.get(file) ?? { runs: [], tests: new Map() };
    entry.runs.push(`${r.run}${r.loaded ? "L" : ""}`);
    for (const test of tests) entry.tests.set(test, (entry.tests.get(test) ?? 0) + 1);
    failures.set(file, entry);
  }
}
const red = runs.filter((r) => !r.ok);
const loaded = runs.filter((r) => r.loaded);
const seconds = (rows) => (rows.length === 0 ? 0 : Math.round(rows.reduce((sum, r) => sum + r.seconds, 0) / rows.length));
lines.push("");
lines.push(
  `${runs.length} runs (${loaded.length} loaded): ${runs.length - red.length} green, ${red.length} red; ` +
    `mean ${minutes(seconds(runs.filter((r) => !r.loaded)))} unloaded, ${minutes(seconds(loaded))} loaded`,
);
if (failures.size === 0) {
  lines.push("no test file failed in any run");
} else {
  lines.push("failures by file (runs; L = loaded):");
  for (const [file, entry] of [...failures].sort((a, b) => b[1].runs.length - a[1].runs.length)) {
    lines.push(`  ${String(entry.runs.length).padStart(2)}/${runs.length}  ${file}  (runs ${entry.runs.join(", ")})`);
    for (const [test, count] of entry.tests) lines.push(`         ${count}x ${test}`);
  }
}
// The slowest tests over all runs: a test whose time under load nears its timeout depends on the machine's speed.
const slowest = new Map();
for (const r of runs) {
  for (const file of r.report?.testResults ?? []) {
    for (const test of file.assertionResults) {
      const key = `${file.name.replace(/^.*?\/repo\//, "")} > ${test.fullName}`;
      const seen = slowest.get(key) ?? { max: 0, loaded: false };
      if ((test.duration ?? 0) > seen.max) slowest.set(key, { max: test.duration ?? 0, loaded: r.loaded });
    }
  }
}
lines.push("slowest tests (longest run; L = loaded):");
for (const [key, { max, loaded: wasLoaded }] of [...slowest].sort((a, b) => b[1].max - a[1].max).slice(0, 12)) {
  lines.push(`  ${(max / 1000).toFixed(1).padStart(6)} s${wasLoaded ? " L" : "  "}  ${key}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
process.exit(red.length === 0 ? 0 : 1);
