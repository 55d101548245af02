import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { nodeBuiltin } from "../core/node-builtin.js";

/**
 * @internal Gives LangChain and LangSmith their shared async context (one
 * `AsyncLocalStorage` under a global key both read) where Node has one,
 * as importing `@langchain/core/callbacks/dispatch` or `langsmith/traceable`
 * would; the tracers import the entry points without `node:async_hooks`
 * instead, so the root import bundles for the browser. There the context
 * stays LangChain's no-op one and a tracer needs an explicit config or
 * parent run. Idempotent: the first instance registered stays.
 */
export function ensureAsyncContext(): void {
  let hooks: ReturnType<typeof nodeBuiltin<"node:async_hooks">>;
  try {
    hooks = nodeBuiltin("node:async_hooks", "async context");
  } catch {
    return;
  }
  AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new hooks.AsyncLocalStorage());
}
