/**
 * Grounding is bounded in the work its joins do, not only in what they
 * find: an action whose preconditions pass for few of the bindings its
 * joins enumerate is refused with BUDGET_EXCEEDED once the partial bindings
 * pass 100 per operator of maxOperators, though it finds fewer bindings
 * than maxOperators (organic-synthesis-opt18 p18 ran minutes so).
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

/** `n` nodes, every triple blocked but (n0, n1, n2): 1 + n + n * n partial bindings extended, one binding found. */
function problem(n: number): string {
  const nodes = Array.from({ length: n }, (_, i) => `n${i}`);
  const blocked = nodes.flatMap((x) =>
    nodes.flatMap((y) => nodes.filter((z) => `${x} ${y} ${z}` !== "n0 n1 n2").map((z) => `(blocked ${x} ${y} ${z})`)),
  );
  return `(define (problem p) (:domain pairs) (:objects ${nodes.join(" ")})
  (:init ${nodes.map((x) => `(node ${x})`).join(" ")} ${blocked.join(" ")})
  (:goal (linked n0 n1 n2)))`;
}

function ground(n: number, maxOperators: number) {
  const domain = parsePddlDomain(DOMAIN, "pairs.pddl");
  return groundPddl(domain, parsePddlProblem(problem(n), domain, "p.pddl"), { maxOperators });
}

describe("grounding's join bound", () => {
  it("grounds the one operator when the joins stay within 100 partial bindings per allowed operator", () => {
    const task = ground(12, 2);
    expect(task.operators.map((o) => [o.schema, ...o.args].join(" "))).toEqual(["link n0 n1 n2"]);
  });

  it("refuses with BUDGET_EXCEEDED, naming the bound, when the joins pass it before the operators do", () => {
    let caught: LangGoapError | undefined;
    try {
      ground(12, 1);
    } catch (error) {
      caught = error as LangGoapError;
    }
    expect(caught?.code).toBe("BUDGET_EXCEEDED");
    expect(caught?.message).toBe(
      "grounding's exploration extended more than 100 partial bindings (100 per operator of option maxOperators)",
    );
  });
});
