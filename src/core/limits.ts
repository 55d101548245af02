/**
 * The largest cost one action may have. A plan's total cost is a sum of
 * action costs, and two actions of cost 1e308 already overflow to
 * `Infinity`; with this bound a plan of a million maximal actions totals
 * 1e18, far from overflow, and integer totals up to 2^53 (about 9e15) stay
 * exact. Larger costs are refused when an action is built or loaded, and a
 * cost function returning more is an error naming the action.
 */
export const MAX_ACTION_COST = 1e12;

/**
 * How deeply a domain file, `--goal` or `--state` may nest objects and
 * arrays. Real domains nest a handful of levels (metadata a few more);
 * the bound turns hostile input that would exhaust the parser's stack into
 * a clear error.
 */
export const MAX_NESTING_DEPTH = 64;
