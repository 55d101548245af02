/**
 * Directory handler (after GOApy's file-system primer): real `mkdir` and
 * `touch` in a fresh temporary folder.
 *
 * Goal: "notes.txt exists in projects/goap". The world state is not typed
 * in: a sensor reads the disk before every planning round. Each action does
 * the real thing with node:fs and an effect validator checks the disk
 * afterwards. `mkdir -p` would do both folders at once but costs 3, so the
 * planner prefers two plain `mkdir`s (cost 1 each) when both are missing.
 *
 * Three runs: from an empty folder, with the parent folder already there,
 * and with everything already there (an empty plan). The script checks the
 * plans and the files on disk, then deletes its temporary folder.
 *
 * Run: npx tsx examples/directory-handler.ts
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ActionSpec } from "../src/core/index.js";
import { FunctionalSensor, GoapGraph, type GoapRunResult, successfulActionNames } from "../src/graph/index.js";

const problems: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) problems.push(what);
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isDirectory = (path: string) => existsSync(path) && statSync(path).isDirectory();
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The domain for one sandbox folder: actions that really touch the disk, and the sensor that reads it. */
function fileSystemDomain(root: string) {
  const parent = join(root, "projects");
  const child = join(parent, "goap");
  const file = join(child, "notes.txt");
  const ran: string[] = [];
  const shell = (line: string) => ran.push(line.replaceAll(root, "$TMP"));

  const actions = [
    new ActionSpec({
      name: "mkdir_parent",
      effects: { parent_dir_exists: true },
      cost: 1,
      execute: () => {
        shell(`mkdir ${parent}`);
        mkdirSync(parent);
      },
      effectValidator: () => isDirectory(parent),
    }),
    new ActionSpec({
      name: "mkdir_child",
      preconditions: { parent_dir_exists: true },
      effects: { child_dir_exists: true },
      cost: 1,
      execute: () => {
        shell(`mkdir ${child}`);
        mkdirSync(child);
      },
      effectValidator: () => isDirectory(child),
    }),
    new ActionSpec({
      name: "mkdir_p_child",
      effects: { parent_dir_exists: true, child_dir_exists: true },
      cost: 3,
      execute: () => {
        shell(`mkdir -p ${child}`);
        mkdirSync(child, { recursive: true });
      },
      effectValidator: () => isDirectory(child),
    }),
    new ActionSpec({
      name: "touch_file",
      preconditions: { child_dir_exists: true },
      effects: { file_exists: true },
      cost: 1,
      execute: () => {
        shell(`touch ${file}`);
        closeSync(openSync(file, "a"));
        const now = new Date();
        utimesSync(file, now, now);
      },
      effectValidator: () => isFile(file),
    }),
  ];
  const disk = new FunctionalSensor("disk", () => ({
    parent_dir_exists: isDirectory(parent),
    child_dir_exists: isDirectory(child),
    file_exists: isFile(file),
  }));
  return { actions, disk, ran, paths: { parent, child, file } };
}

interface Scenario {
  readonly title: string;
  /** Prepares the sandbox before the run. */
  readonly prepare: (paths: { parent: string; child: string; file: string }) => void;
  readonly expectedPlan: readonly string[];
  readonly expectedCost: number;
}

const scenarios: Scenario[] = [
  {
    title: "empty folder",
    prepare: () => {},
    expectedPlan: ["mkdir_parent", "mkdir_child", "touch_file"],
    expectedCost: 3,
  },
  {
    title: "projects/ already exists",
    prepare: ({ parent }) => mkdirSync(parent),
    expectedPlan: ["mkdir_child", "touch_file"],
    expectedCost: 2,
  },
  {
    title: "everything already exists",
    prepare: ({ child, file }) => {
      mkdirSync(child, { recursive: true });
      closeSync(openSync(file, "a"));
    },
    expectedPlan: [],
    expectedCost: 0,
  },
];

const goal = { file_exists: true };
const sandboxes: string[] = [];
try {
  for (const scenario of scenarios) {
    const root = mkdtempSync(join(tmpdir(), "langgoap-directory-handler-"));
    sandboxes.push(root);
    const domain = fileSystemDomain(root);
    scenario.prepare(domain.paths);
    const graph = new GoapGraph(domain.actions, { sensors: [domain.disk], logger: { warn: (m) => console.log(`  ! ${m}`) } });
    // The start state is empty on purpose: the disk sensor fills it in before planning.
    const result: GoapRunResult = await graph.invoke(goal, {});

    console.log(`\n${scenario.title} (${root})`);
    console.log(`  plan (cost ${result.plan?.totalCost ?? 0}): ${result.plan?.actions.join(" → ") || "(nothing to do)"}`);
    for (const line of domain.ran) console.log(`  $ ${line}`);
    console.log(`  status: ${result.status}; ${relative(root, domain.paths.file)} is ${isFile(domain.paths.file) ? "on disk" : "MISSING"}`);

    const label = `${scenario.title}:`;
    check(result.status === "goal_achieved", `${label} status ${result.status}`);
    check(
      same(successfulActionNames(result), scenario.expectedPlan),
      `${label} ran ${successfulActionNames(result).join(", ") || "nothing"}`,
    );
    check(
      (result.plan?.totalCost ?? 0) === scenario.expectedCost,
      `${label} plan cost ${result.plan?.totalCost}, expected ${scenario.expectedCost}`,
    );
    check(domain.ran.length === scenario.expectedPlan.length, `${label} ran ${domain.ran.length} commands`);
    check(isDirectory(domain.paths.parent) && isDirectory(domain.paths.child), `${label} the folders are not on disk`);
    check(isFile(domain.paths.file) && statSync(domain.paths.file).size === 0, `${label} notes.txt is not an empty file on disk`);
    check(
      same(
        { parent: result.worldState.parent_dir_exists, child: result.worldState.child_dir_exists, file: result.worldState.file_exists },
        { parent: true, child: true, file: true },
      ),
      `${label} the final world state does not match the disk`,
    );
  }
} finally {
  for (const root of sandboxes) rmSync(root, { recursive: true, force: true });
}
check(sandboxes.length === scenarios.length && sandboxes.every((root) => !existsSync(root)), "the temporary folders should all be removed");

if (problems.length > 0) {
  console.error(`\nFAILED:\n- ${problems.join("\n- ")}`);
  process.exitCode = 1;
} else {
  console.log("\nOK: each run planned from the real disk, created exactly what was missing, and the sandboxes are cleaned up.");
}
