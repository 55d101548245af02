/** The part of a compiled LangGraph graph that {@link prepareInputs} wraps. */
interface StreamingGraph {
  stream(input: never, options?: never): Promise<unknown>;
  withConfig(config: never): unknown;
}

/**
 * @internal Runs `prepare` on every input of a compiled graph before its
 * `stream` sees it, and returns the graph with `extras` attached. `invoke`,
 * `streamEvents` and the LangGraph API server all go through `stream`, so
 * that is the one place to look at an input; the wrappers are `function`s
 * (not bound arrows) so that each copy `withConfig` makes runs with its own
 * config, and `withConfig` is wrapped so the copies keep `prepare` and
 * `extras` (LangGraph's copy keeps only its own fields).
 */
export function prepareInputs<G extends StreamingGraph, E extends object>(
  compiled: G,
  prepare: (graph: G, input: unknown, options: { configurable?: Record<string, unknown> } | undefined) => unknown,
  extras: E,
): G & E {
  // The graph's own methods, which may already be wrapped (GoapGraph's paused-thread guard wraps withConfig): they are kept, not bypassed.
  const baseStream = compiled.stream;
  const baseWithConfig = compiled.withConfig;
  const stream = async function (this: G, input: unknown, options?: unknown) {
    const ready = await prepare(this, input, options as { configurable?: Record<string, unknown> } | undefined);
    return baseStream.call(this, ready as never, options as never);
  };
  const withConfig = function (this: G, config: unknown) {
    return prepareInputs(baseWithConfig.call(this, config as never) as G, prepare, extras);
  };
  return Object.assign(compiled, { stream, withConfig }, extras);
}
