/** Chunks the graph writes to LangGraph's `custom` stream mode. */
export type GoapStreamEvent =
  | { readonly kind: "plan"; readonly actions: readonly string[]; readonly totalCost: number; readonly replan: boolean }
  | {
      readonly kind: "no_plan";
      readonly suggestion: string;
      /**
       * `no_plan` when proven; `denied` when only actions a human refused
       * lead to the goal; `budget_exhausted` or `aborted` when the search
       * was cut short.
       */
      readonly status?: "no_plan" | "denied" | "budget_exhausted" | "aborted";
    }
  | { readonly kind: "action"; readonly actionName: string; readonly success: boolean; readonly error: string | null }
  | { readonly kind: "finish"; readonly status: string; readonly reason: string | null };

/** @internal Writes to the custom stream when the run has one; never throws. */
export function emitEvent(config: { writer?: ((chunk: unknown) => void) | undefined } | undefined, event: GoapStreamEvent): void {
  try {
    config?.writer?.(event);
  } catch {
    // Streaming is best effort.
  }
}
