import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { loadPddl } from "../../src/pddl/index.js";
import { explainNoPlan, planDetailed } from "../../src/planner/index.js";
import { checkPddlPlan } from "../support/pddl-plan-check.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFileSync(join(here, "fixtures", name), "utf8");
const GRIPPER = fixture("gripper-domain.pddl");
const GRIPPER_P01 = fixture("gripper-p01.pddl");
const DELIVERY = fixture("delivery-domain.pddl");
const DELIVERY_P01 = fixture("delivery-p01.pddl");

function solve(domain: string, problem: string) {
  const task = loadPddl(domain, problem);
  const result = planDetailed(task.state, task.goal, task.actions);
  expect(result.status).toBe("found");
  const names = result.plan?.actionNames ?? [];
  const ipc = task.formatPlan(names);
  const steps = ipc.split("\n").filter((line) => line.startsWith("("));
  return { task, result, ipc, steps, check: checkPddlPlan(task.domain, task.problem, steps) };
}

describe("loadPddl: STRIPS", () => {
  it("gripper p01 (untyped STRIPS): the optimal plan of 11 steps, valid under the lifted semantics", () => {
    const { task, result, ipc, check } = solve(GRIPPER, GRIPPER_P01);
    // 2 rooms x 2 rooms moves + 4 balls x 2 rooms x 2 grippers picks and drops: reachable, typed by the static unary predicates.
    expect(task.stats).toMatchObject({ objects: 8, facts: 20, operators: 36 });
    expect(result.plan?.totalCost).toBe(11);
    expect(check).toEqual({ valid: true, cost: 11 });
    expect(ipc.trimEnd().split("\n").at(-1)).toBe("; cost = 11 (unit cost)");
    expect(task.state).toMatchObject({ "at-robby(rooma)": true, "at(ball1,rooma)": true, "carry(ball1,left)": false });
    expect(task.goal).toEqual({ "at(ball4,roomb)": true, "at(ball3,roomb)": true, "at(ball2,roomb)": true, "at(ball1,roomb)": true });
  });

  it("delivery: types, constants, negative preconditions, equality and action costs from the init", () => {
    const { task, result, ipc, steps, check } = solve(DELIVERY, DELIVERY_P01);
    expect(task.actionCosts).toBe(true);
    expect(result.plan?.totalCost).toBe(10);
    expect(check).toEqual({ valid: true, cost: 10 });
    // Unlocking b (5) and the short road through c (1 + 2) beat the road through a (4 + 4), which needs no unlock but b is locked.
    expect([...steps].sort()).toEqual(["(drive t1 c b)", "(drive t1 depot c)", "(load p1 t1 depot)", "(unload p1 t1 b)", "(unlock t1 b)"]);
    expect(ipc).toMatch(/; cost = 10 \(general cost\)\n$/);
    // Equality: no drive from a place to itself; negative preconditions stay on fluents (locked can change).
    expect(task.actions.some((a) => a.name === "drive(t1,a,a)")).toBe(false);
    expect(task.actions.find((a) => a.name === "drive(t1,c,b)")?.preconditions).toEqual({ "at(t1,c)": true, "locked(b)": false });
    expect(task.actions.find((a) => a.name === "drive(t1,c,b)")?.metadata).toEqual({ pddl: "(drive t1 c b)" });
  });

  it("without (:metric minimize (total-cost)) every action costs 1", () => {
    const { result, check } = solve(DELIVERY, DELIVERY_P01.replace("(:metric minimize (total-cost))", ""));
    expect(result.plan?.totalCost).toBe(5);
    expect(check).toEqual({ valid: true, cost: 5 });
  });

  it("grounds by reachability, not by the cross product", () => {
    // Three trucks, but only t1 is anywhere: drives of t2/t3 never apply, so they are never made.
    const problem = DELIVERY_P01.replace("(:objects t1 - vehicle", "(:objects t1 t2 t3 - vehicle");
    const task = loadPddl(DELIVERY, problem);
    expect(task.actions.filter((a) => a.name.startsWith("drive(t2") || a.name.startsWith("unlock(t3"))).toEqual([]);
    // t1: drives along the 8 roads; load/unload of p1 where t1 can be (4 places each); unlock of the one locked place.
    expect(task.stats.operators).toBe(8 + 4 + 4 + 1);
  });

  it("a goal no action can reach is proved to have no plan", () => {
    const task = loadPddl(GRIPPER, GRIPPER_P01.replace("(at ball1 roomb))", "(at ball1 roomb) (carry rooma left))"));
    expect(planDetailed(task.state, task.goal, task.actions).status).toBe("no_plan");
  });

  it("runs in a GoapGraph with execute bound by schema name", async () => {
    const task = loadPddl(DELIVERY, DELIVERY_P01);
    const driven: string[] = [];
    const actions = task.withExecutors({
      drive: async (args) => {
        driven.push(args.join(" "));
      },
    });
    const result = await new GoapGraph(actions).invoke(task.goal, task.state);
    expect(result.status).toBe("goal_achieved");
    expect(driven).toEqual(["t1 depot c", "t1 c b"]);
    expect(successfulActionNames(result)).toHaveLength(5);
  });
});

describe("loadPddl: errors name the file, line and column", () => {
  const error = (run: () => unknown): LangGoapError => {
    try {
      run();
    } catch (e) {
      expect(e).toBeInstanceOf(LangGoapError);
      return e as LangGoapError;
    }
    throw new Error("expected an error");
  };

  it("syntax", () => {
    expect(error(() => loadPddl("(define (domain d)\n  (:predicates (p)", GRIPPER_P01)).message).toBe(
      "domain.pddl:2:3: this '(' is never closed",
    );
    const extra = error(() => loadPddl(GRIPPER, "(define (problem p) (:domain gripper-strips))\n)"));
    expect(extra.code).toBe("PDDL_SYNTAX");
    expect(extra.message).toBe("problem.pddl:2:1: unexpected ')' with no '(' open");
    const unknown = error(() =>
      loadPddl(GRIPPER.replace("(carry ?obj ?gripper) (at-robby ?room))", "(hold ?obj) (at-robby ?room))"), GRIPPER_P01),
    );
    expect(unknown.message).toBe('domain.pddl:17:29: unknown predicate "hold" in action drop');
    expect(error(() => loadPddl(GRIPPER, GRIPPER_P01.replace("(free left)", "(free left right)"))).message).toBe(
      "problem.pddl:5:28: predicate free of arity 1 used with 2 arguments in the init",
    );
    expect(error(() => loadPddl(GRIPPER, GRIPPER_P01.replace("(ball ball4)", "(ball ball9)"))).message).toBe(
      'problem.pddl:4:43: unknown object "ball9"',
    );
    expect(error(() => loadPddl(GRIPPER, GRIPPER_P01.replace("(:domain gripper-strips)", "(:domain other)"))).message).toBe(
      'problem.pddl:2:4: the problem is for domain "other", but the domain is "gripper-strips"',
    );
  });

  it("valid PDDL beyond Fast Downward's translator is refused as unsupported, never half-read", () => {
    const cases: [string, string][] = [
      [
        DELIVERY.replace(":action-costs)", ":action-costs :durative-actions)"),
        "domain.pddl:3:82: the requirement :durative-actions is not supported",
      ],
      [
        DELIVERY.replace("(increase (total-cost) 1)))\n  (:action unload", "(decrease (total-cost) 1)))\n  (:action unload"),
        "domain.pddl:20:46: the numeric effect (decrease …) in action load is not supported",
      ],
      [
        DELIVERY.replace("(:constants depot - location)", "(:constants depot - (either location thing))"),
        "domain.pddl:6:23: an (either …) type in (:constants …) (Fast Downward reads it in predicate declarations only) is not supported",
      ],
    ];
    for (const [domain, where] of cases) {
      const e = error(() => loadPddl(domain, DELIVERY_P01));
      expect(e.code).toBe("PDDL_UNSUPPORTED");
      expect(e.message.startsWith(where)).toBe(true);
      expect(e.message).toContain("(supported: what Fast Downward's translator reads, less derived predicates");
    }
  });

  it("hostile nesting is refused, not a stack overflow", () => {
    const deep = `${"(".repeat(100_000)}${")".repeat(100_000)}`;
    expect(error(() => loadPddl(deep, GRIPPER_P01)).message).toBe("domain.pddl:1:1001: nesting deeper than 1000 levels");
  });
});

describe("goalFromPddl: a goal written later (the LLM+P pattern)", () => {
  it("turns a PDDL goal over the task's objects into conditions the planner and the graph take", () => {
    const task = loadPddl(GRIPPER, GRIPPER_P01);
    const goal = task.goalFromPddl("(and (at ball1 roomb) (not (free left)))");
    expect(goal).toEqual({ "at(ball1,roomb)": true, "free(left)": false });
    const result = planDetailed(task.state, goal, task.actions);
    expect(result.plan?.totalCost).toBe(4);
  });

  it("a goal that can never hold is required as written, so the explanation names the atom at fault", () => {
    const task = loadPddl(GRIPPER, GRIPPER_P01);
    // `at` holds of balls in rooms only: grounding never reaches a ball "at" a gripper.
    const never = task.goalFromPddl("(and (at ball1 roomb) (at ball2 left))");
    expect(never).toEqual({ "at(ball2,left)": true });
    expect(planDetailed(task.state, never, task.actions).status).toBe("no_plan");
    expect(explainNoPlan(task.state, never, task.actions).unreachableConditions).toEqual(["at(ball2,left) = true"]);
    // A static atom (no action changes `room`) required false, and an equality of two objects.
    expect(task.goalFromPddl("(and (at ball1 roomb) (not (room rooma)))")).toEqual({ "room(rooma)": false });
    expect(task.goalFromPddl("(= ball1 ball2)")).toEqual({ "=(ball1,ball2)": true });
    // Every alternative of a disjunction that can never hold is named.
    expect(task.goalFromPddl("(or (at ball1 left) (not (ball ball1)))")).toEqual({ "at(ball1,left)": true, "ball(ball1)": false });
    // A goal that contradicts itself has no atom at fault.
    const contradictory = task.goalFromPddl("(and (free left) (not (free left)))");
    expect(contradictory).toEqual({ "goal-contradicts-itself": true });
    expect(planDetailed(task.state, contradictory, task.actions).status).toBe("no_plan");
  });

  it("a problem whose goal can never hold: the start state holds the atom at fault at its fixed value", () => {
    const problem = GRIPPER_P01.replace("(at ball1 roomb)", "(not (room roomb))");
    const task = loadPddl(GRIPPER, problem);
    expect(task.goal).toEqual({ "room(roomb)": false });
    expect(task.state["room(roomb)"]).toBe(true);
    const result = planDetailed(task.state, task.goal, task.actions);
    expect(result.status).toBe("no_plan");
    expect(explainNoPlan(task.state, task.goal, task.actions).unreachableConditions).toEqual(["room(roomb) = false"]);
  });

  it("unknown names are errors that point into the goal text", () => {
    const task = loadPddl(GRIPPER, GRIPPER_P01);
    expect(() => task.goalFromPddl("(and (at ball1 roomb)\n  (at ball7 roomb))")).toThrow('goal:2:7: unknown object "ball7"');
    expect(() => task.goalFromPddl("(and (at ball1 roomb) (holding ball1))")).toThrow('goal:1:23: unknown predicate "holding" in the goal');
  });
});
