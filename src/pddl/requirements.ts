import type { PddlReader } from "./read.js";
import type { SExpr, SourcePosition } from "./sexpr.js";

/**
 * The requirement labels Fast Downward's translator accepts, and so this
 * reader: it reads every construct they name. `:derived-predicates` is
 * accepted as a label, but a `(:derived …)` section is refused with
 * `PDDL_UNSUPPORTED` (the planner has no axioms).
 */
export const PDDL_REQUIREMENTS: readonly string[] = Object.freeze([
  ":strips",
  ":adl",
  ":typing",
  ":negation",
  ":equality",
  ":negative-preconditions",
  ":disjunctive-preconditions",
  ":existential-preconditions",
  ":universal-preconditions",
  ":quantified-preconditions",
  ":conditional-effects",
  ":derived-predicates",
  ":action-costs",
]);

/** Requirements of PDDL 2.1-3.1 that Fast Downward refuses: refused as unsupported, not as malformed. */
const OTHER_PDDL_REQUIREMENTS = new Set([
  ":numeric-fluents",
  ":object-fluents",
  ":fluents",
  ":durative-actions",
  ":duration-inequalities",
  ":continuous-effects",
  ":timed-initial-literals",
  ":preferences",
  ":constraints",
  ":time",
]);

/** Reads `(:requirements …)` items as Fast Downward does: each a word among its labels. */
export function readRequirements(reader: PddlReader, items: readonly SExpr[], near: SourcePosition): string[] {
  return items.map((item) => {
    const label = reader.atom(item, "a requirement label like :strips", near);
    if (PDDL_REQUIREMENTS.includes(label.text)) return label.text;
    if (OTHER_PDDL_REQUIREMENTS.has(label.text)) throw reader.unsupported(label, `the requirement ${label.text}`);
    throw reader.fail(label, `unknown requirement ${JSON.stringify(label.text)} (expected one of ${PDDL_REQUIREMENTS.join(", ")})`);
  });
}
