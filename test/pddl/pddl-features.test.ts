/**
 * One small hand-written domain per PDDL feature Fast Downward's translator
 * reads: each is parsed, grounded, solved optimally, and the plan checked by
 * the lifted checker (test/support/pddl-plan-check.ts), which evaluates the
 * PDDL semantics directly on the parsed task.
 */
import { describe, expect, it } from "vitest";
import { loadPddl } from "../../src/pddl/index.js";
import { planDetailed } from "../../src/planner/index.js";
import { checkPddlPlan } from "../support/pddl-plan-check.js";

function solve(domain: string, problem: string) {
  const task = loadPddl(domain, problem);
  const result = planDetailed(task.state, task.goal, task.actions);
  expect(result.status).toBe("found");
  const ipc = task.formatPlan(result.plan?.actionNames ?? []);
  const steps = ipc.split("\n").filter((line) => line.startsWith("("));
  return { task, cost: result.plan?.totalCost, steps, check: checkPddlPlan(task.domain, task.problem, steps) };
}

const names = (task: { actions: readonly { name: string }[] }, prefix: string) =>
  task.actions
    .map((a) => a.name)
    .filter((n) => n.startsWith(prefix))
    .sort();

describe("types: a hierarchy, (either …) in predicates, constants", () => {
  const DOMAIN = `(define (domain fleet)
  (:requirements :typing)
  (:types truck van - vehicle vehicle place)
  (:constants depot - place)
  (:predicates (at ?v - vehicle ?p - place) (road ?a ?b - place) (parked ?x - (either truck van)))
  (:action drive
    :parameters (?v - vehicle ?a ?b - place)
    :precondition (and (at ?v ?a) (road ?a ?b))
    :effect (and (at ?v ?b) (not (at ?v ?a))))
  (:action park :parameters (?t - truck) :precondition (at ?t depot) :effect (parked ?t)))`;
  const PROBLEM = `(define (problem p) (:domain fleet)
  (:objects t1 - truck v1 - van a b - place)
  (:init (at t1 a) (at v1 b) (road a depot) (road b depot) (road depot a))
  (:goal (and (parked t1) (at v1 depot))))`;

  it("a subtype's objects fill its ancestors' parameters; a parameter of a subtype takes only its objects", () => {
    const { task, cost, check } = solve(DOMAIN, PROBLEM);
    // Trucks and vans are vehicles; only trucks park.
    expect(names(task, "drive")).toEqual([
      "drive(t1,a,depot)",
      "drive(t1,depot,a)",
      "drive(v1,a,depot)",
      "drive(v1,b,depot)",
      "drive(v1,depot,a)",
    ]);
    expect(names(task, "park")).toEqual(["park(t1)"]);
    expect(task.domain.predicates.get("parked")).toEqual([{ name: "?x", type: "either truck van", at: expect.anything() }]);
    expect(cost).toBe(3);
    expect(check).toEqual({ valid: true, cost: 3 });
  });
});

describe("quantifiers and disjunctions in preconditions and goals", () => {
  const DOMAIN = `(define (domain lights)
  (:requirements :adl)
  (:types room switch)
  (:predicates (on ?s - switch) (in ?s - switch ?r - room) (lit ?r - room) (open ?r - room) (visited ?r - room))
  (:action flip :parameters (?s - switch) :precondition (not (on ?s)) :effect (on ?s))
  (:action light :parameters (?r - room)
    :precondition (forall (?s - switch) (imply (in ?s ?r) (on ?s)))
    :effect (lit ?r))
  (:action enter :parameters (?r - room)
    :precondition (and (lit ?r) (or (open ?r) (exists (?s - switch) (and (in ?s ?r) (on ?s)))))
    :effect (visited ?r)))`;
  const PROBLEM = `(define (problem p) (:domain lights)
  (:objects r1 r2 - room s1 s2 s3 - switch)
  (:init (in s1 r1) (in s2 r1) (in s3 r2) (open r2))
  (:goal (forall (?r - room) (visited ?r))))`;

  it("forall is expanded over the objects once the parameters are bound: static parts decided, the rest a conjunction", () => {
    const { task } = solve(DOMAIN, PROBLEM);
    expect(task.actions.find((a) => a.name === "light(r1)")?.preconditions).toEqual({ "on(s1)": true, "on(s2)": true });
    expect(task.actions.find((a) => a.name === "light(r2)")?.preconditions).toEqual({ "on(s3)": true });
  });

  it("or splits an action into one operator per disjunct; exists adds parameters that do not name the action", () => {
    const { task } = solve(DOMAIN, PROBLEM);
    // enter(r1): (open r1) is false, so the exists disjunct remains, once per switch in r1.
    expect(names(task, "enter(r1)")).toEqual(["enter(r1)", "enter(r1)#2"]);
    expect(task.actions.filter((a) => a.name.startsWith("enter(r1)")).map((a) => a.preconditions)).toEqual([
      { "lit(r1)": true, "on(s1)": true },
      { "lit(r1)": true, "on(s2)": true },
    ]);
    // enter(r2): (open r2) holds, so one operator needs only lit(r2); the other disjunct (s3) is another operator.
    expect(task.actions.filter((a) => a.name.startsWith("enter(r2)")).map((a) => a.preconditions)).toEqual([
      { "lit(r2)": true },
      { "lit(r2)": true, "on(s3)": true },
    ]);
    expect(task.actions.find((a) => a.name === "enter(r1)")?.metadata).toEqual({ pddl: "(enter r1)" });
  });

  it("the optimal plan flips every switch a room needs, and the universal goal holds", () => {
    const { cost, steps, check } = solve(DOMAIN, PROBLEM);
    expect(cost).toBe(7);
    expect(steps.filter((s) => s.startsWith("(flip")).sort()).toEqual(["(flip s1)", "(flip s2)", "(flip s3)"]);
    expect(check).toEqual({ valid: true, cost: 7 });
  });

  it("a disjunctive goal is reached through a goal operator that plans carry but printed plans leave out", () => {
    const goal = "(:goal (or (visited r1) (and (lit r2) (visited r2))))";
    const task = loadPddl(DOMAIN, PROBLEM.replace("(:goal (forall (?r - room) (visited ?r))))", `${goal})`));
    const result = planDetailed(task.state, task.goal, task.actions);
    // flip s3, light r2, enter r2 (3) beats flip s1, flip s2, light r1, enter r1 (4).
    expect(result.plan?.totalCost).toBe(3);
    expect(result.plan?.actionNames.at(-1)).toMatch(/^\(goal\)/);
    const ipc = task.formatPlan(result.plan?.actionNames ?? []);
    expect(ipc).toBe("(flip s3)\n(light r2)\n(enter r2)\n; cost = 3 (unit cost)\n");
    const steps = ipc.split("\n").filter((line) => line.startsWith("("));
    expect(checkPddlPlan(task.domain, task.problem, steps)).toEqual({ valid: true, cost: 3 });
  });
});

describe("conditional and universal effects", () => {
  const DOMAIN = `(define (domain lamps)
  (:requirements :typing :conditional-effects :negative-preconditions)
  (:types lamp cell)
  (:predicates (on ?l - lamp) (at ?c - cell) (next ?a ?b - cell) (bonus ?c - cell) (scored ?c - cell))
  (:action toggle :parameters (?l - lamp)
    :effect (and (when (on ?l) (not (on ?l))) (when (not (on ?l)) (on ?l))))
  (:action all-off :parameters () :effect (forall (?l - lamp) (not (on ?l))))
  (:action move :parameters (?a ?b - cell)
    :precondition (and (at ?a) (next ?a ?b))
    :effect (and (at ?b) (not (at ?a)) (when (bonus ?b) (scored ?b)))))`;
  const PROBLEM = `(define (problem p) (:domain lamps)
  (:objects l1 l2 l3 - lamp c1 c2 c3 - cell)
  (:init (on l2) (on l3) (at c1) (next c1 c2) (next c2 c3) (bonus c3))
  (:goal (and (on l1) (not (on l2)) (not (on l3)) (scored c3))))`;

  it("a condition on static atoms is decided at grounding and leaves a plain operator", () => {
    const { task } = solve(DOMAIN, PROBLEM);
    expect(task.actions.find((a) => a.name === "move(c2,c3)")?.effects).toEqual({ "at(c2)": false, "at(c3)": true, "scored(c3)": true });
    expect(task.actions.find((a) => a.name === "move(c1,c2)")?.effects).toEqual({ "at(c1)": false, "at(c2)": true });
  });

  it("conditions on fluents split the action into one plain operator per case", () => {
    const { task } = solve(DOMAIN, PROBLEM);
    expect(task.actions.filter((a) => a.name.startsWith("toggle(l1)")).map((a) => [a.preconditions, a.effects])).toEqual([
      [{ "on(l1)": true }, { "on(l1)": false }],
      [{ "on(l1)": false }, { "on(l1)": true }],
    ]);
    // A universal effect deletes every lamp; no condition, so one operator.
    expect(task.actions.filter((a) => a.name.startsWith("all-off")).map((a) => a.effects)).toEqual([
      { "on(l1)": false, "on(l2)": false, "on(l3)": false },
    ]);
  });

  it("the optimal plan uses the universal effect and the conditional toggle, and the lifted semantics agree", () => {
    const { cost, steps, check } = solve(DOMAIN, PROBLEM);
    // all-off, toggle l1, move c1 c2, move c2 c3: 4 (toggling l2 and l3 separately would take 5).
    expect(cost).toBe(4);
    expect([...steps].sort()).toEqual(["(all-off)", "(move c1 c2)", "(move c2 c3)", "(toggle l1)"]);
    expect(check).toEqual({ valid: true, cost: 4 });
  });

  it("past maxSplit operators per action the task is refused with PDDL_UNSUPPORTED", () => {
    const many = `(define (domain many) (:requirements :adl) (:types lamp)
  (:predicates (on ?l - lamp) (seen ?l - lamp))
  (:action off :parameters (?l - lamp) :precondition (on ?l) :effect (not (on ?l)))
  (:action look :parameters () :effect (forall (?l - lamp) (when (on ?l) (seen ?l)))))`;
    const problem = `(define (problem p) (:domain many) (:objects a b c d e f g h i - lamp) (:init (on a)) (:goal (seen a)))`;
    const allOn = problem.replace("(on a)", "(on a) (on b) (on c) (on d) (on e) (on f) (on g) (on h) (on i)");
    expect(() => loadPddl(many, allOn)).toThrow(
      expect.objectContaining({
        code: "PDDL_UNSUPPORTED",
        message: "domain.pddl:4:3: action (look) splits into more than 256 operators to compile its conditional effects (option maxSplit)",
      }),
    );
    // The bound is an option: 9 lamps make 2^9 - 1 operators (the case where no lamp is on changes nothing).
    expect(loadPddl(many, allOn, { maxSplit: 600 }).stats.operators).toBe(9 + 511);
    // Within the bound the same domain compiles: one lamp on, so one condition is on a fluent (look fires when a is on), and off(a).
    expect(loadPddl(many, problem).stats.operators).toBe(2);
  });
});

describe("action costs from functions of the init", () => {
  const DOMAIN = `(define (domain trip)
  (:requirements :typing :action-costs)
  (:types place)
  (:predicates (at ?p - place))
  (:functions (total-cost) - number (dist ?a ?b - place) - number)
  (:action go :parameters (?a ?b - place)
    :precondition (at ?a)
    :effect (and (at ?b) (not (at ?a)) (increase (total-cost) (dist ?a ?b)))))`;
  const PROBLEM = `(define (problem p) (:domain trip)
  (:objects a b c d - place)
  (:init (at a) (= (dist a b) 5) (= (dist b c) 1) (= (dist a c) 9) (= (dist c d) 2) (= (total-cost) 0))
  (:goal (at d))
  (:metric minimize (total-cost)))`;

  it("each operator costs its function value; a move whose value the init leaves undefined is never grounded", () => {
    const { task, cost, steps, check } = solve(DOMAIN, PROBLEM);
    expect(names(task, "go")).toEqual(["go(a,b)", "go(a,c)", "go(b,c)", "go(c,d)"]);
    expect(task.actions.find((a) => a.name === "go(a,c)")?.cost).toBe(9);
    expect(cost).toBe(8);
    expect(steps).toEqual(["(go a b)", "(go b c)", "(go c d)"]);
    expect(check).toEqual({ valid: true, cost: 8 });
  });
});

describe("Fast Downward's tokenizer: case, comments, '?' and the init", () => {
  it("reads upper case, comments with any characters, '?' starting a word, and false atoms in the init", () => {
    const domain = `; Domäne für Tests — comments may hold any character
(DEFINE (DOMAIN Switch) (:REQUIREMENTS :STRIPS)
  (:PREDICATES (Link ?A?B) (At ?X))
  (:ACTION Step :PARAMETERS (?A?B) :PRECONDITION (AND (At ?A) (Link ?A ?B)) :EFFECT (AND (At ?B) (NOT (At ?A)))))`;
    const problem = `(define (problem P) (:domain SWITCH) (:objects X Y Z)
  (:init (At X) (Link X Y) (Link Y Z) (not (At Z))) ; (At Z) is false anyway
  (:goal (At Z)))`;
    const { task, steps, check } = solve(domain, problem);
    expect(task.domain.name).toBe("switch");
    expect(steps).toEqual(["(step x y)", "(step y z)"]);
    expect(check).toEqual({ valid: true, cost: 2 });
  });
});

describe("long operator names (caldera-opt18 has operators of a dozen long arguments)", () => {
  // Twelve parameters, each of its own type with one object, except the last type, which has two: two operators
  // whose names agree on their first 120 characters.
  const types = Array.from({ length: 12 }, (_, i) => `t${i}`);
  const objectOf = (i: number) => `object_with_a_rather_long_name_${i}`;
  const DOMAIN = `(define (domain wide)
  (:requirements :typing)
  (:types ${types.join(" ")})
  (:predicates (ready) (done ?x - t11))
  (:action finish :parameters (${types.map((t, i) => `?a${i} - ${t}`).join(" ")}) :precondition (ready) :effect (done ?a11)))`;
  const PROBLEM = `(define (problem p) (:domain wide)
  (:objects ${types.map((t, i) => `${objectOf(i)} - ${t}`).join(" ")} other_last_object - t11)
  (:init (ready))
  (:goal (done other_last_object)))`;

  it("names past 120 characters are shortened and stay unique; the printed plan has the whole PDDL operator", () => {
    const { task, cost, steps, check } = solve(DOMAIN, PROBLEM);
    expect(cost).toBe(1);
    const firstEleven = Array.from({ length: 11 }, (_, i) => objectOf(i)).join(" ");
    expect(steps).toEqual([`(finish ${firstEleven} other_last_object)`]);
    expect(check).toMatchObject({ valid: true });
    const long = task.actions.filter((a) => a.name.startsWith("finish("));
    expect(long).toHaveLength(2);
    for (const action of long) expect(action.name.length).toBeLessThanOrEqual(120);
    expect(long[0]?.name).not.toBe(long[1]?.name);
  });
});

describe("effect conditions on the written atom itself (Fast Downward's prune_stupid_effect_conditions; schedule's actions)", () => {
  const colours = Array.from({ length: 10 }, (_, i) => `c${i}`);
  const DOMAIN = `(define (domain paint)
  (:requirements :typing :conditional-effects)
  (:types part colour)
  (:predicates (colour-of ?x - part ?c - colour) (busy) (done ?x - part))
  (:action repaint
    :parameters (?x - part ?new - colour)
    :precondition (done ?x)
    :effect (and (forall (?old - colour) (when (colour-of ?x ?old) (not (colour-of ?x ?old))))
                 (colour-of ?x ?new)
                 (when (not (busy)) (busy))))
  (:action finish :parameters (?x - part) :effect (done ?x)))`;
  const PROBLEM = `(define (problem p) (:domain paint)
  (:objects a - part ${colours.join(" ")} - colour)
  (:init (colour-of a c1) (colour-of a c2))
  (:goal (and (colour-of a c2) (not (colour-of a c1)) (busy))))`;

  it("a delete conditioned on its own atom, or an add on its negation, is unconditional (10 colours split past 256 operators before)", () => {
    const { task, cost, steps, check } = solve(DOMAIN, PROBLEM);
    expect(cost).toBe(2);
    expect(steps).toEqual(["(finish a)", "(repaint a c2)"]);
    expect(check).toMatchObject({ valid: true });
    // Two operators per repaint, not 2^10: only the new colour, which the action both adds and (conditionally) deletes,
    // keeps its condition (the add wins when both fire); every other delete and the add of busy are unconditional.
    expect(task.actions.filter((a) => a.name.startsWith("repaint(")).length).toBe(20);
    expect(names(task, "repaint(a,c2)")).toEqual(["repaint(a,c2)", "repaint(a,c2)#2"]);
    for (const repaint of task.actions.filter((a) => a.name.startsWith("repaint(a,c2)"))) {
      expect(repaint.effects).toMatchObject({ "colour-of(a,c1)": false, "colour-of(a,c9)": false, busy: true });
      expect(repaint.preconditions).not.toHaveProperty("busy");
    }
  });
});
