import { LangGoapError } from "../core/errors.js";
import type { GoalSpec } from "../core/goal.js";
import type { Plan } from "../planner/index.js";

function coversEveryStep(plan: Plan): boolean {
  return (plan.metadata.csp?.schedule?.length ?? -1) === plan.actions.length;
}

/**
 * The plan with a schedule for the Gantt formats and the HTML report: its
 * own when it has one, otherwise the one `refinePlan` computes (the MILP
 * scheduler of `langgoap/optimize`, run when actions declare durations).
 * With `required`, a plan that cannot get a schedule is bad input for the
 * format: the message says why.
 */
export async function scheduled(plan: Plan, goal: GoalSpec, format: string, required: boolean): Promise<Plan> {
  if (coversEveryStep(plan) && !plan.isEmpty) return plan;
  const fail = (why: string): never => {
    throw new LangGoapError("INVALID_OPTION", `--format ${format}: ${why}`, { option: "format" });
  };
  if (plan.isEmpty) return required ? fail("the plan is empty (the goal already holds); there is nothing to schedule") : plan;
  if (!plan.actions.some((a) => a.durationMs !== undefined)) {
    return required
      ? fail(`needs actions with durationMs; none of the plan's actions [${plan.actionNames.join(", ")}] declares one`)
      : plan;
  }
  // The MILP scheduler loads only when a chart needs it.
  const { refinePlan } = await import("../optimize/index.js");
  const refined = await refinePlan(plan, goal);
  if (coversEveryStep(refined)) return refined;
  const csp = refined.metadata.csp as { status?: string; message?: string } | undefined;
  return required
    ? fail(`the plan could not be scheduled (${csp?.status ?? "no schedule"}${csp?.message ? `: ${csp.message}` : ""})`)
    : refined;
}
