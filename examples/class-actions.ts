/**
 * Class-based actions: a small release pipeline written as GoapAction
 * subclasses (static preconditions, effects and cost; the work in `run`;
 * a state-dependent cost in `costIn`; an outcome check in `validate`).
 * The same instances are planned with `plan()` and run in a GoapGraph,
 * where a flaky test suite fails once and the graph replans around it.
 *
 * Run: npx tsx examples/class-actions.ts
 */
import { GoapAction, type WorldState } from "../src/core/index.js";
import { GoapGraph, type GoapLogger, successfulActionNames } from "../src/graph/index.js";
import { plan } from "../src/planner/index.js";

const performed: string[] = [];

class Build extends GoapAction {
  static override actionName = "build";
  static override effects = { built: true };
  static override cost = 2;
  override run() {
    performed.push("build");
  }
}

/** The fast suite is flaky: it fails on its first run. */
class RunFastTests extends GoapAction {
  static override actionName = "run_fast_tests";
  static override preconditions = { built: true };
  static override effects = { tested: true };
  static override cost = 1;
  static failuresLeft = 1;
  override run() {
    performed.push("run_fast_tests");
    if (RunFastTests.failuresLeft-- > 0) throw new Error("flaky test: timeout in test_login");
  }
}

class RunFullTests extends GoapAction {
  static override actionName = "run_full_tests";
  static override preconditions = { built: true };
  static override effects = { tested: true };
  static override cost = 4;
  override run() {
    performed.push("run_full_tests");
  }
}

/** Deploying costs more while traffic is high; the deployment is checked afterwards. */
class Deploy extends GoapAction {
  static override actionName = "deploy";
  static override preconditions = { tested: true };
  static override effects = { deployed: true };
  override costIn(state: Readonly<WorldState>) {
    return state.peak_traffic === true ? 10 : 3;
  }
  override run(state: Readonly<WorldState>) {
    performed.push("deploy");
    return { deployed: true, version: `v${Number(state.build_number ?? 0) + 1}` };
  }
  override validate(_before: Readonly<WorldState>, after: Readonly<WorldState>) {
    return after.deployed === true && typeof after.version === "string";
  }
}

function check(condition: boolean, message: string): void {
  if (!condition) {
    console.error(`FAILED: ${message}`);
    process.exit(1);
  }
  console.log(`ok - ${message}`);
}

const actions = [new Build(), new RunFastTests(), new RunFullTests(), new Deploy()];
const start: WorldState = { built: false, tested: false, deployed: false, peak_traffic: false, build_number: 41 };

const calm = plan(start, { deployed: true }, actions);
console.log(`plan: ${calm?.actionNames.join(" → ")} (cost ${calm?.totalCost})`);
check(calm?.actionNames.join(",") === "build,run_fast_tests,deploy" && calm.totalCost === 6, "the cheapest plan uses the fast suite");
check(
  plan({ ...start, peak_traffic: true }, { deployed: true }, actions)?.totalCost === 13,
  "deploying at peak traffic costs more (costIn)",
);

const quiet: GoapLogger = { debug() {}, info() {}, warn() {}, error() {} };
const result = await new GoapGraph(actions, { logger: quiet }).invoke({ deployed: true }, start);
console.log(`run: ${result.status}; executed ${successfulActionNames(result).join(" → ")}; tried ${performed.join(", ")}`);
check(result.status === "goal_achieved", "the run reaches the goal");
check(
  successfulActionNames(result).join(",") === "build,run_full_tests,deploy",
  "after the flaky suite fails, the graph replans through the full suite",
);
check(result.worldState.version === "v42", "deploy's returned state (validated) is kept");
