import type { PddlDomain, PddlProblem } from "./ast.js";

/** @internal The task's objects numbered, and each type's objects (its own and its subtypes'). */
export interface ObjectTypes {
  /** Object names by number, in declaration order (constants first). */
  readonly names: readonly string[];
  readonly ids: ReadonlyMap<string, number>;
  /** Type numbers by name; 0 is `object`. */
  readonly typeIds: ReadonlyMap<string, number>;
  /** The objects of each type, ascending. */
  readonly members: readonly Int32Array[];
  /** `isMember[type][object]` is 1 when the object is of the type. */
  readonly isMember: readonly Uint8Array[];
}

/**
 * Numbers the objects and gives each type its objects: an object belongs to
 * its declared type and every ancestor (Fast Downward's transitive closure
 * of the hierarchy, so a cyclic declaration makes the types one). Every
 * object is an `object`.
 */
export function objectTypes(domain: PddlDomain, problem: PddlProblem): ObjectTypes {
  const names = [...problem.objects.keys()];
  const ids = new Map(names.map((name, i) => [name, i]));
  const typeNames = ["object", ...[...domain.typeParents.keys()].filter((t) => t !== "object")];
  const typeIds = new Map(typeNames.map((t, i) => [t, i]));
  const lists: number[][] = typeNames.map(() => []);
  const ancestors = new Map<string, number[]>();
  const ancestorsOf = (type: string): number[] => {
    const known = ancestors.get(type);
    if (known) return known;
    const found = new Set<number>([0]);
    const visited = new Set<string>();
    for (let t: string | undefined = type; t !== undefined && !visited.has(t); t = domain.typeParents.get(t)) {
      visited.add(t);
      const id = typeIds.get(t);
      if (id !== undefined) found.add(id);
    }
    const out = [...found];
    ancestors.set(type, out);
    return out;
  };
  names.forEach((name, object) => {
    for (const type of ancestorsOf(problem.objects.get(name) as string)) (lists[type] as number[]).push(object);
  });
  const members = lists.map((list) => Int32Array.from(list));
  const isMember = members.map((list) => {
    const flags = new Uint8Array(names.length);
    for (const o of list) flags[o] = 1;
    return flags;
  });
  return { names, ids, typeIds, members, isMember };
}
