/**
 * The large domain of the loader benchmark: a chain of actions, each with
 * its own facts (the worst case for memory: no two actions share a
 * condition object's shape).
 */

/** A domain of `n` chained actions, each with two preconditions and two effects, as JSON text. */
export function domainText(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(
      JSON.stringify({
        name: `step_${i}`,
        preconditions: { [`done_${i}`]: true, energy: { gte: 1 } },
        effects: { [`done_${i + 1}`]: true, energy: { dec: 1 } },
        cost: 1 + (i % 5),
      }),
    );
  }
  return `{"state":{"done_0":true,"energy":${n}},"goal":{"done_${n}":true},"actions":[\n${parts.join(",\n")}\n]}`;
}
