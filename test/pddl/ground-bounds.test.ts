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

function ground(n: number, maxOperators: number) {
  const domain = parsePddlDomain(DOMAIN, "pairs.pddl");
  return groundPddl(domain, parsePddlProblem(problem(n), domain, "p.pddl"), { maxOperators });
}

describe("grounding's join bound", () => {
  it("grounds the one operator when the joins stay within 100 steps per allowed operator", () => {
    const task = ground(12, 40);
    expect(task.operators.map((o) => [o.schema, ...o.args].join(" "))).toEqual(["link n0 n1 n2"]);
  });

  it("refuses with BUDGET_EXCEEDED, naming the bound, when the joins pass it before the operators do", () => {
    let caught: LangGoapError | undefined;
    try {
      ground(12, 2);
    } catch (error) {
      caught = error as LangGoapError;
    }
    expect(caught?.code).toBe("BUDGET_EXCEEDED");
    expect(caught?.message).toBe("grounding's exploration took more than 200 join steps (100 per operator of option maxOperators)");
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
    let caught: LangGoapError | undefined;
    try {
      groundPddl(domain, task, { maxOperators: 200 });
    } catch (error) {
      caught = error as LangGoapError;
    }
    expect(caught?.code).toBe("BUDGET_EXCEEDED");
    expect(caught?.message).toBe("grounding's exploration took more than 20000 join steps (100 per operator of option maxOperators)");
  });
});
