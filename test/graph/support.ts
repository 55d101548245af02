import { ActionSpec, type ActionSpecOptions } from "../../src/core/index.js";
import type { GoapLogger, GoapStateUpdate } from "../../src/graph/index.js";

/** A logger that records messages instead of printing them. */
export function quietLogger(): GoapLogger & { readonly messages: string[] } {
  const messages: string[] = [];
  const push = (m: string) => {
    messages.push(m);
  };
  return { messages, debug: push, info: push, warn: push, error: push };
}

/** An action whose calls are appended to `calls`; `run` may throw or return updates. */
export function tracked(
  calls: string[],
  options: ActionSpecOptions & { run?: (attempt: number, call: number) => Record<string, unknown> | undefined | void },
): ActionSpec {
  const { run, ...spec } = options;
  let call = 0;
  return new ActionSpec({
    ...spec,
    execute: (_state, ctx) => {
      calls.push(spec.name);
      call++;
      return run?.(ctx.attempt, call);
    },
  });
}

/** `node status reason` lines from an `updates` stream. */
export async function updateTrail(stream: AsyncIterable<unknown>): Promise<string[]> {
  const trail: string[] = [];
  for await (const chunk of stream) {
    for (const [node, update] of Object.entries(chunk as Record<string, GoapStateUpdate | null>)) {
      if (node === "__interrupt__") {
        trail.push("interrupt");
        continue;
      }
      const u = (update ?? {}) as Record<string, unknown>;
      const plan = u.plan as { actions: string[] } | null | undefined;
      trail.push(
        [
          node,
          u.status ?? "-",
          plan ? `plan=${plan.actions.join(",")}` : "",
          u.replanReason !== undefined ? `reason=${u.replanReason}` : "",
        ]
          .filter(Boolean)
          .join(" "),
      );
    }
  }
  return trail;
}
