/**
 * What Fast Downward's translator refuses, langgoap refuses too, with a
 * coded error naming the file, line and column: `PDDL_SYNTAX` for malformed
 * text, `PDDL_UNSUPPORTED` for valid PDDL beyond the translator (numeric
 * fluents, durative actions, PDDL 3) and for derived predicates, which the
 * translator reads but the planner has no axioms for. Each case below was
 * run through `python3 -m translate` (Fast Downward's translator): it
 * refuses every one but `(:derived …)`.
 */
import { describe, expect, it } from "vitest";
import type { LangGoapError } from "../../src/core/index.js";
import { loadPddl } from "../../src/pddl/index.js";

const DOMAIN = `(define (domain roads)
  (:requirements :typing :action-costs)
  (:types place vehicle)
  (:constants depot - place)
  (:predicates (at ?v - vehicle ?p - place) (road ?a ?b - place))
  (:functions (total-cost) - number (dist ?a ?b - place) - number)
  (:action drive
    :parameters (?v - vehicle ?a ?b - place)
    :precondition (and (at ?v ?a) (road ?a ?b))
    :effect (and (at ?v ?b) (not (at ?v ?a)) (increase (total-cost) (dist ?a ?b)))))
`;
const PROBLEM = `(define (problem trip)
  (:domain roads)
  (:objects t1 - vehicle a b - place)
  (:init (at t1 a) (road a b) (road b depot) (= (dist a b) 2) (= (dist b depot) 3))
  (:goal (at t1 depot))
  (:metric minimize (total-cost)))
`;

function refusal(domain: string, problem: string): { code: string; message: string } {
  try {
    loadPddl(domain, problem);
  } catch (error) {
    const { code, message } = error as LangGoapError;
    return { code, message };
  }
  throw new Error("expected a refusal");
}

const replaced = (text: string, from: string, to: string) => {
  if (!text.includes(from)) throw new Error(`fixture has no ${from}`);
  return text.replace(from, to);
};

describe("refusals: as Fast Downward's translator, with a code, the file, line and column", () => {
  it("the base task loads (so each refusal below is the change's doing)", () => {
    expect(loadPddl(DOMAIN, PROBLEM).stats.operators).toBe(2);
  });

  const malformed: [string, string, string, string][] = [
    [
      "a character outside ASCII outside a comment",
      replaced(DOMAIN, "(road ?a ?b - place))", "(road ?a ?b - place) (café ?x))"),
      PROBLEM,
      'domain.pddl:5:70: a character outside ASCII ("é") outside a comment',
    ],
    ["text after the file's one list", `${DOMAIN}(extra)\n`, PROBLEM, 'domain.pddl:11:1: text after the end of the file\'s one list: "("'],
    ["a list never closed", DOMAIN.trimEnd().slice(0, -1), PROBLEM, "domain.pddl:1:1: this '(' is never closed"],
    [
      "action fields out of order",
      replaced(
        DOMAIN,
        ":precondition (and (at ?v ?a) (road ?a ?b))\n    :effect (and (at ?v ?b) (not (at ?v ?a)) (increase (total-cost) (dist ?a ?b)))",
        ":effect (and (at ?v ?b) (not (at ?v ?a)))\n    :precondition (and (at ?v ?a) (road ?a ?b))",
      ),
      PROBLEM,
      "domain.pddl:10:5: :precondition after :effect in drive: an action is (:action NAME [:parameters (…)] [:precondition φ] :effect e), in that order",
    ],
    [
      "a second (:predicates …)",
      replaced(DOMAIN, "  (:functions", "  (:predicates (foo))\n  (:functions"),
      PROBLEM,
      "domain.pddl:6:3: a second (:predicates …) section",
    ],
    [
      "a header section after an action",
      `${DOMAIN.trimEnd().slice(0, -1)}\n  (:constants extra - place))\n`,
      PROBLEM,
      "domain.pddl:11:3: (:constants …) must come before the actions",
    ],
    [
      "an unknown requirement",
      replaced(DOMAIN, ":action-costs)", ":action-costs :foo)"),
      PROBLEM,
      'domain.pddl:2:40: unknown requirement ":foo"',
    ],
    [
      "declaring the type number",
      replaced(DOMAIN, "(:types place vehicle)", "(:types place vehicle number)"),
      PROBLEM,
      'domain.pddl:3:25: the type "number" is reserved and cannot be declared',
    ],
    [
      "an undeclared predicate",
      replaced(DOMAIN, "(road ?a ?b))\n    :effect", "(rood ?a ?b))\n    :effect"),
      PROBLEM,
      'domain.pddl:9:35: unknown predicate "rood" in action drive',
    ],
    [
      "an undeclared variable",
      replaced(DOMAIN, "(road ?a ?b))\n    :effect", "(road ?a ?c))\n    :effect"),
      PROBLEM,
      "domain.pddl:9:44: unknown variable ?c",
    ],
    [
      "a negative number",
      replaced(DOMAIN, "(increase (total-cost) (dist ?a ?b))", "(increase (total-cost) -1)"),
      PROBLEM,
      "domain.pddl:10:69: negative numbers are not allowed (-1) in action drive",
    ],
    [
      "sections of a problem out of order",
      DOMAIN,
      replaced(
        PROBLEM,
        "  (:init (at t1 a) (road a b) (road b depot) (= (dist a b) 2) (= (dist b depot) 3))\n  (:goal (at t1 depot))",
        "  (:goal (at t1 depot))\n  (:init (at t1 a) (road a b) (road b depot) (= (dist a b) 2) (= (dist b depot) 3))",
      ),
      "problem.pddl:4:3: expected (:init …), found (:goal …)",
    ],
    [
      "an object that is already a constant",
      DOMAIN,
      replaced(PROBLEM, "a b - place", "a b depot - place"),
      "problem.pddl:3:30: the object depot is declared twice (objects and the domain's constants are one set)",
    ],
    [
      "an atom both true and false in the init",
      DOMAIN,
      replaced(PROBLEM, "(road a b)", "(road a b) (not (road a b))"),
      "problem.pddl:4:36: (road a b) is both true and false in the init (see line 4)",
    ],
    [
      "an undeclared object",
      DOMAIN,
      replaced(PROBLEM, "(road b depot)", "(road b nowhere)"),
      'problem.pddl:4:39: unknown object "nowhere"',
    ],
    [
      "a wrong arity",
      DOMAIN,
      replaced(PROBLEM, "(road a b)", "(road a b a)"),
      "problem.pddl:4:20: predicate road of arity 2 used with 3 arguments in the init",
    ],
    [
      "an object of an undeclared type",
      DOMAIN,
      replaced(PROBLEM, "t1 - vehicle", "t1 - truck"),
      'problem.pddl:3:13: object t1 has the unknown type "truck"',
    ],
    [
      "an empty goal",
      DOMAIN,
      replaced(PROBLEM, "(:goal (at t1 depot))", "(:goal ())"),
      "problem.pddl:5:3: (:goal …) takes exactly one non-empty condition",
    ],
    [
      "another domain's problem",
      DOMAIN,
      replaced(PROBLEM, "(:domain roads)", "(:domain other)"),
      'problem.pddl:2:3: the problem is for domain "other", but the domain is "roads"',
    ],
  ];
  for (const [what, domain, problem, message] of malformed) {
    it(`PDDL_SYNTAX: ${what}`, () => {
      const { code, message: got } = refusal(domain, problem);
      expect(code).toBe("PDDL_SYNTAX");
      expect(got.slice(0, message.length)).toBe(message);
    });
  }

  const unsupported: [string, string, string, string][] = [
    [
      "a requirement of PDDL 2.1",
      replaced(DOMAIN, ":action-costs)", ":action-costs :durative-actions)"),
      PROBLEM,
      "domain.pddl:2:40: the requirement :durative-actions",
    ],
    [
      "a derived predicate (Fast Downward makes axioms of it; the planner has none)",
      replaced(
        replaced(DOMAIN, "  (:action drive", "  (:derived (near ?a ?b - place) (road ?a ?b))\n  (:action drive"),
        "(road ?a ?b - place))",
        "(road ?a ?b - place) (near ?a ?b - place))",
      ),
      PROBLEM,
      "domain.pddl:7:3: a derived predicate (:derived …)",
    ],
    [
      "(either …) among an action's parameters",
      replaced(DOMAIN, "(?v - vehicle ?a ?b - place)\n    :precondition", "(?v - (either vehicle place) ?a ?b - place)\n    :precondition"),
      PROBLEM,
      "domain.pddl:8:23: an (either …) type in the parameters of drive (Fast Downward reads it in predicate declarations only)",
    ],
    [
      "a numeric condition",
      replaced(DOMAIN, "(and (at ?v ?a) (road ?a ?b))", "(and (at ?v ?a) (road ?a ?b) (> (dist ?a ?b) 1))"),
      PROBLEM,
      "domain.pddl:9:48: a numeric comparison (> …) in action drive",
    ],
    [
      "a fractional cost",
      replaced(DOMAIN, "(increase (total-cost) (dist ?a ?b))", "(increase (total-cost) 1.5)"),
      PROBLEM,
      "domain.pddl:10:69: the fractional number 1.5 in action drive",
    ],
    [
      "a cost under when",
      replaced(DOMAIN, "(increase (total-cost) (dist ?a ?b))", "(when (road ?b ?a) (increase (total-cost) 1))"),
      PROBLEM,
      "domain.pddl:10:65: a cost effect under 'forall' or 'when' in action drive",
    ],
    [
      "a numeric effect",
      replaced(DOMAIN, "(increase (total-cost) (dist ?a ?b))", "(decrease (total-cost) 1)"),
      PROBLEM,
      "domain.pddl:10:46: the numeric effect (decrease …) in action drive",
    ],
    [
      "a metric to maximize",
      DOMAIN,
      replaced(PROBLEM, "minimize", "maximize"),
      "problem.pddl:6:3: a metric other than (:metric minimize (total-cost))",
    ],
    [
      "PDDL 3 constraints",
      DOMAIN,
      replaced(PROBLEM, "  (:metric minimize (total-cost)))", "  (:metric minimize (total-cost))\n  (:constraints (at t1 a)))"),
      "problem.pddl:7:3: the section (:constraints …)",
    ],
  ];
  for (const [what, domain, problem, message] of unsupported) {
    it(`PDDL_UNSUPPORTED: ${what}`, () => {
      const { code, message: got } = refusal(domain, problem);
      expect(code).toBe("PDDL_UNSUPPORTED");
      const expected = `${message} is not supported (supported: what Fast Downward's translator reads`;
      expect(got.slice(0, expected.length)).toBe(expected);
    });
  }

  it("stricter than Fast Downward: an undeclared type or cost function is named, where the translator silently grounds nothing", () => {
    expect(refusal(replaced(DOMAIN, "?v - vehicle ?a", "?v - truck ?a"), PROBLEM)).toEqual({
      code: "PDDL_SYNTAX",
      message: 'domain.pddl:8:18: unknown type "truck"',
    });
    expect(refusal(replaced(DOMAIN, "(dist ?a ?b))", "(len ?a ?b))"), PROBLEM)).toEqual({
      code: "PDDL_SYNTAX",
      message: 'domain.pddl:10:69: unknown function "len" in action drive',
    });
  });

  it("accepted as Fast Downward accepts them: a repeated action name (both kept), an action without effects (dropped), an undefined cost value (no operator)", () => {
    const twice = `${DOMAIN.trimEnd().slice(0, -1)}\n  (:action drive :parameters (?v - vehicle) :effect (at ?v depot))\n  (:action wait :parameters () :effect (and)))\n`;
    const task = loadPddl(twice, PROBLEM);
    expect(task.actions.map((a) => a.name).sort()).toEqual(["drive(t1)", "drive(t1,a,b)", "drive(t1,b,depot)"]);
    expect(loadPddl(DOMAIN, PROBLEM.replace(" (= (dist b depot) 3)", "")).actions.map((a) => a.name)).toEqual(["drive(t1,a,b)"]);
  });
});
