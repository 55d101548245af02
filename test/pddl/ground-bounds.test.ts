/**
 * Grounding is bounded in the work its joins do, not only in what they
 * find: an action whose preconditions pass for few of the bindings its
 * joins enumerate, or for few of the tuples they try, is refused with
 * BUDGET_EXCEEDED once the join steps (partial bindings extended and
 * candidates tried) pass 100 per operator of maxOperators, though it finds
 * fewer bindings than maxOperators (organic-synthesis-opt18 p18 ran
 * minutes so; it is now refused in seconds).
 */
import { describe, expect, it } from "vitest";
import type { LangGoapError } from "../../src/core/errors.js";
import { groundPddl } from "../../src/pddl/ground.js";
import { parsePddlDomain, parsePddlProblem } from "../../src/pddl/index.js";

const DOMAIN = `(define (domain pairs)
  (:predicates (node ?x) (blocked ?x ?y ?z) (linked ?x ?y ?z))
  (:action link
    :parameters (?x ?y ?z)
    :precondition (and (node ?x) (node ?y) (node ?z) (not (blocked ?x ?y ?z)))
    :effect (linked ?x ?y ?z)))
`;

/** `n` nodes, every triple blocked but (n0, n1, n2): n * n * n candidates tried, one binding found. */
function problem(n: number): string {
  const nodes = Array.from({ length: n }, (_, i) => `n${i}`);
  const blocked = nodes.flatMap((x) =>
    nodes.flatMap((y) => nodes.filter((z) => `${x} ${y} ${z}` !== "n0 n1 n2").map((z) => `(blocked ${x} ${y} ${z})`)),
  );
  return `(define (problem p) (:domain pairs) (:objects ${nodes.join(" ")})
  (:init ${nodes.map((x) => `(node ${x})`).join(" ")} ${blocked.join(" ")})
  (:goal (linked n0 n1 n2)))`;
}

const LOOPS = `(define (domain loops) (:predicates (pair ?x ?y) (looped ?x))
  (:action loop :parameters (?x) :precondition (pair ?x ?x) :effect (looped ?x)))`;

const CROSS = `(define (domain cross) (:requirements :typing)
  (:types red blue thing place)
  (:predicates (at ?x - object ?p - place) (paired ?r - red ?b - blue))
  (:action pair :parameters (?r - red ?b - blue ?p - place ?q - place)
    :precondition (and (at ?r ?p) (at ?b ?q) (not (= ?p ?q)))
    :effect (paired ?r ?b)))`;

function ground(n: number, maxOperators: number) {
  const domain = parsePddlDomain(DOMAIN, "pairs.pddl");
  return groundPddl(domain, parsePddlProblem(problem(n), domain, "p.pddl"), { maxOperators });
}

/** Expects `run` to be refused with BUDGET_EXCEEDED by the join-step bound, at `steps`. */
function expectJoinBound(run: () => unknown, steps: number): void {
  let caught: LangGoapError | undefined;
  try {
    run();
  } catch (error) {
    caught = error as LangGoapError;
  }
  expect(caught?.code).toBe("BUDGET_EXCEEDED");
  expect(caught?.message).toBe(`grounding's exploration took more than ${steps} join steps (100 per operator of option maxOperators)`);
}

describe("grounding's join bound", () => {
  it("grounds the one operator when the joins stay within 100 steps per allowed operator", () => {
    const task = ground(12, 40);
    expect(task.operators.map((o) => [o.schema, ...o.args].join(" "))).toEqual(["link n0 n1 n2"]);
  });

  it("refuses with BUDGET_EXCEEDED, naming the bound, when the joins pass it before the operators do", () => {
    expectJoinBound(() => ground(12, 2), 200);
  });

  // Every tuple of the static pairs is tried, and only the n loops pass: the work is n * n tries for n bindings.
  it("counts the tuples a join tries and rejects: n * n tries for n loops, refused when that passes 100 per operator", () => {
    const domain = parsePddlDomain(LOOPS, "loops.pddl");
    const nodes = Array.from({ length: 200 }, (_, i) => `n${i}`);
    const task = parsePddlProblem(
      `(define (problem p) (:domain loops) (:objects ${nodes.join(" ")})
        (:init ${nodes.flatMap((x) => nodes.map((y) => `(pair ${x} ${y})`)).join(" ")}) (:goal (looped n0)))`,
      domain,
      "p.pddl",
    );
    expect(groundPddl(domain, task, { maxOperators: 500 }).operators).toHaveLength(200);
    expectJoinBound(() => groundPddl(domain, task, { maxOperators: 200 }), 20_000);
  });

  // An action whose preconditions fall into two groups sharing no parameter (a cross product): the second group's
  // bindings are found once per join and replayed, in the order nested loops would find them, not joined again for
  // every binding of the first (organic-synthesis-opt18 p06: 692 million join steps then, 40 million now).
  it("joins a group of preconditions that shares no parameter with the others once, and keeps the nested loops' order", () => {
    const domain = parsePddlDomain(CROSS, "cross.pddl");
    const reds = Array.from({ length: 50 }, (_, i) => `r${i}`);
    const others = Array.from({ length: 1000 }, (_, i) => `o${i}`);
    // Red i stands at place i % 3; blue b0 at place 0, b1 at place 1: a pair on one place is refused by the inequality.
    const at = [...reds.map((r, i) => `(at ${r} p${i % 3})`), "(at b0 p0)", ...others.map((o) => `(at ${o} p0)`), "(at b1 p1)"];
    const task = parsePddlProblem(
      `(define (problem p) (:domain cross) (:objects ${reds.join(" ")} - red b0 b1 - blue ${others.join(" ")} - thing p0 p1 p2 - place)
        (:init ${at.join(" ")}) (:goal (paired r0 b1)))`,
      domain,
      "p.pddl",
    );
    // Nested loops over the tuples of at, reds outside: without the replay, 1,052 tuples tried for each of the 50 reds.
    const expected = reds.flatMap((r, i) =>
      ["b0", "b1"].filter((_blue, j) => i % 3 !== j).map((b) => `pair ${r} ${b} p${i % 3} p${b === "b0" ? 0 : 1}`),
    );
    const operators = groundPddl(domain, task, { maxOperators: 100 }).operators.map((o) => [o.schema, ...o.args].join(" "));
    expect(operators).toEqual(expected);
    expect(operators).toHaveLength(66);
  });
});
