/**
 * A small PDDL plan checker that works on the lifted task, independently of
 * the grounding (as VAL does): each step `(name a b …)` is matched to its
 * action schema, its parameters bound and type-checked against the
 * problem's objects, its precondition evaluated on the current set of true
 * atoms (closed world), its effects applied (deletes, then adds), and its
 * cost summed. The goal must hold at the end.
 */
import type { PddlDomain, PddlProblem, PddlTerm } from "../../src/pddl/index.js";

export interface PlanCheck {
  readonly valid: boolean;
  readonly cost: number;
  /** Why the plan is invalid, naming the step. */
  readonly problem?: string;
}

function isOfType(domain: PddlDomain, objectType: string | undefined, type: string): boolean {
  for (let t = objectType; t !== undefined; t = domain.typeParents.get(t)) if (t === type) return true;
  return type === "object" && objectType !== undefined;
}

export function checkPddlPlan(domain: PddlDomain, problem: PddlProblem, steps: readonly string[]): PlanCheck {
  const state = new Set(problem.init.map((a) => [a.predicate, ...a.args].join(" ")));
  let cost = 0;
  for (const [index, step] of steps.entries()) {
    const words = step.trim().replace(/^\(/, "").replace(/\)$/, "").trim().toLowerCase().split(/\s+/);
    const [name, ...args] = words;
    const schema = domain.actions.find((a) => a.name === name);
    const fail = (why: string): PlanCheck => ({ valid: false, cost, problem: `step ${index + 1} ${step}: ${why}` });
    if (!schema) return fail("no such action");
    if (args.length !== schema.parameters.length) return fail(`expects ${schema.parameters.length} arguments`);
    const binding = new Map<string, string>();
    for (const [i, p] of schema.parameters.entries()) {
      const arg = args[i] as string;
      if (!isOfType(domain, problem.objects.get(arg), p.type)) return fail(`${arg} is not a ${p.type}`);
      binding.set(p.name, arg);
    }
    const value = (t: PddlTerm) => ("object" in t ? t.object : (binding.get(t.variable) as string));
    const key = (predicate: string, terms: readonly PddlTerm[]) => [predicate, ...terms.map(value)].join(" ");
    for (const literal of schema.preconditions) {
      const holds =
        literal.kind === "equal" ? value(literal.left) === value(literal.right) : state.has(key(literal.atom.predicate, literal.atom.args));
      if (holds === literal.negated) return fail("a precondition does not hold");
    }
    for (const atom of schema.deletes) state.delete(key(atom.predicate, atom.args));
    for (const atom of schema.adds) state.add(key(atom.predicate, atom.args));
    if (!problem.minimizeTotalCost) {
      cost += 1;
      continue;
    }
    for (const c of schema.costs) {
      cost += c.kind === "constant" ? c.value : (problem.initValues.get([c.name, ...c.args.map(value)].join(" ")) ?? Number.NaN);
    }
  }
  for (const literal of problem.goal) {
    const holds =
      literal.kind === "equal"
        ? JSON.stringify(literal.left) === JSON.stringify(literal.right)
        : state.has([literal.atom.predicate, ...literal.atom.args.map((t) => ("object" in t ? t.object : t.variable))].join(" "));
    if (holds === literal.negated) return { valid: false, cost, problem: "the goal does not hold at the end" };
  }
  return { valid: true, cost };
}
