import { LangGoapError } from "./errors.js";

/** The Node built-ins langgoap uses, by the name it asks for them with. */
interface NodeBuiltins {
  "node:async_hooks": typeof import("node:async_hooks");
  "node:fs": typeof import("node:fs");
  "node:fs/promises": typeof import("node:fs/promises");
  "node:module": typeof import("node:module");
  "node:os": typeof import("node:os");
  "node:path": typeof import("node:path");
  "node:url": typeof import("node:url");
  "node:worker_threads": typeof import("node:worker_threads");
}

/** @internal A Node built-in's name. */
export type NodeBuiltinName = keyof NodeBuiltins;

/**
 * @internal A Node built-in, fetched when a feature runs rather than by an
 * import statement, so the modules that use one (plan files, SQLite, PNG,
 * the solver worker, the deployment scaffold) stay in the root import and
 * that import still bundles for the browser: bundlers see no `node:`
 * module to resolve. `process.getBuiltinModule` is Node's synchronous
 * loader (Node >= 20.16, our floor is 20.19).
 *
 * @param name - the built-in, e.g. `"node:fs/promises"`.
 * @param feature - what needs it, for the error, e.g. `"savePlan"`.
 * @returns the module.
 * @throws LangGoapError `NODE_ONLY` where there is no Node (a browser).
 *
 * @example
 * ```ts
 * const { readFile } = nodeBuiltin("node:fs/promises", "loadPlan");
 * ```
 */
export function nodeBuiltin<Name extends NodeBuiltinName>(name: Name, feature: string): NodeBuiltins[Name] {
  const loaded = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(name);
  if (loaded === undefined) {
    throw new LangGoapError(
      "NODE_ONLY",
      `${feature} needs Node.js (>= 20.19, for ${name}); this runtime has no ${name} (a browser?). Use it on the server.`,
      { feature, module: name },
    );
  }
  return loaded as NodeBuiltins[Name];
}
