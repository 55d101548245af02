/**
 * A small PDDL plan checker that works on the lifted task, independently of
 * the grounding (as VAL does): each step `(name a b …)` is matched to its
 * action schema, its parameters bound and type-checked against the
 * problem's objects, its precondition evaluated on the current set of true
 * atoms (closed world; `and`, `or`, `not`, `forall` and `exists` over the
 * typed objects, `=`), its effects applied (each `forall` binding whose
 * `when` condition holds in the state before the step: deletes, then adds)
 * and its cost summed (with `(:metric minimize (total-cost))`: the
 * `increase`, a number or a function value from the init, 0 without one;
 * else 1). The goal must hold at the end.
 */
import type { PddlActionSchema, PddlCondition, PddlDomain, PddlParameter, PddlProblem, PddlTerm } from "../../src/pddl/index.js";

export interface PlanCheck {
  readonly valid: boolean;
  readonly cost: number;
  /** Why the plan is invalid, naming the step. */
  readonly problem?: string;
}

type Env = ReadonlyMap<string, string>;

function isOfType(domain: PddlDomain, objectType: string | undefined, type: string): boolean {
  if (objectType === undefined) return false;
  if (type === "object") return true;
  const seen = new Set<string>();
  for (let t: string | undefined = objectType; t !== undefined && !seen.has(t); t = domain.typeParents.get(t)) {
    if (t === type) return true;
    seen.add(t);
  }
  return false;
}

export function checkPddlPlan(domain: PddlDomain, problem: PddlProblem, steps: readonly string[]): PlanCheck {
  const objectsOf = (type: string) => [...problem.objects].filter(([, t]) => isOfType(domain, t, type)).map(([o]) => o);
  const value = (t: PddlTerm, env: Env) => ("object" in t ? t.object : (env.get(t.variable) as string));
  const key = (predicate: string, terms: readonly PddlTerm[], env: Env) => [predicate, ...terms.map((t) => value(t, env))].join(" ");
  const bindings = function* (parameters: readonly PddlParameter[], env: Env): Generator<Env> {
    if (parameters.length === 0) {
      yield env;
      return;
    }
    const [first, ...rest] = parameters as [PddlParameter, ...PddlParameter[]];
    for (const object of objectsOf(first.type)) yield* bindings(rest, new Map(env).set(first.name, object));
  };
  const holds = (condition: PddlCondition, env: Env, state: ReadonlySet<string>): boolean => {
    switch (condition.kind) {
      case "atom":
        return state.has(key(condition.atom.predicate, condition.atom.args, env)) !== condition.negated;
      case "equal":
        return (value(condition.left, env) === value(condition.right, env)) !== condition.negated;
      case "and":
        return condition.parts.every((p) => holds(p, env, state));
      case "or":
        return condition.parts.some((p) => holds(p, env, state));
      case "forall":
        for (const inner of bindings(condition.parameters, env)) if (!holds(condition.body, inner, state)) return false;
        return true;
      case "exists":
        for (const inner of bindings(condition.parameters, env)) if (holds(condition.body, inner, state)) return true;
        return false;
    }
  };

  let state = new Set(problem.init.map((a) => [a.predicate, ...a.args].join(" ")));
  let cost = 0;
  for (const [index, step] of steps.entries()) {
    const words = step.trim().replace(/^\(/, "").replace(/\)$/, "").trim().toLowerCase().split(/\s+/);
    const [name, ...args] = words;
    const fail = (why: string): PlanCheck => ({ valid: false, cost, problem: `step ${index + 1} ${step}: ${why}` });
    const schemas = domain.actions.filter((a) => a.name === name);
    if (schemas.length === 0) return fail("no such action");
    let applied: { schema: PddlActionSchema; env: Env } | undefined;
    let why = "";
    for (const schema of schemas) {
      if (args.length !== schema.parameters.length) {
        why = `expects ${schema.parameters.length} arguments`;
        continue;
      }
      const env = new Map<string, string>();
      const wrong = schema.parameters.findIndex((p, i) => !isOfType(domain, problem.objects.get(args[i] as string), p.type));
      if (wrong >= 0) {
        why = `${args[wrong]} is not a ${schema.parameters[wrong]?.type}`;
        continue;
      }
      schema.parameters.forEach((p, i) => {
        env.set(p.name, args[i] as string);
      });
      if (!holds(schema.precondition, env, state)) {
        why = "the precondition does not hold";
        continue;
      }
      applied = { schema, env };
      break;
    }
    if (!applied) return fail(why);
    const { schema, env } = applied;
    const adds: string[] = [];
    const deletes: string[] = [];
    for (const effect of schema.effects) {
      for (const inner of bindings(effect.parameters, env)) {
        if (!holds(effect.condition, inner, state)) continue;
        (effect.literal.negated ? deletes : adds).push(key(effect.literal.atom.predicate, effect.literal.atom.args, inner));
      }
    }
    const next = new Set(state);
    for (const atom of deletes) next.delete(atom);
    for (const atom of adds) next.add(atom);
    state = next;
    if (!problem.minimizeTotalCost) cost += 1;
    else if (schema.cost?.kind === "constant") cost += schema.cost.value;
    else if (schema.cost?.kind === "function") {
      cost += problem.initValues.get([schema.cost.name, ...schema.cost.args.map((t) => value(t, env))].join(" ")) ?? Number.NaN;
    }
  }
  if (!holds(problem.goal, new Map(), state)) return { valid: false, cost, problem: "the goal does not hold at the end" };
  return { valid: true, cost };
}
