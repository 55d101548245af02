import { nodeBuiltin } from "../core/node-builtin.js";

/**
 * The domain file of a PDDL problem file, found by Fast Downward's naming
 * rules (driver/util.py `find_domain_path`), tried in this order in the
 * problem's folder: `domain.pddl`, `<stem>-domain.<ext>` (`p01-domain.pddl`),
 * `<first 3 characters>-domain.pddl` (airport's `p01-domain.pddl` for
 * `p01-airport1-p1.pddl`), `domain_<name>` and `domain-<name>`
 * (`domain_p01.pddl`, `domain-p01.pddl`). Undefined when none exists.
 *
 * @example
 * ```ts
 * findPddlDomainFile("benchmarks/airport/p01-airport1-p1.pddl"); // "benchmarks/airport/p01-domain.pddl"
 * findPddlDomainFile("benchmarks/gripper/prob01.pddl");          // "benchmarks/gripper/domain.pddl"
 * ```
 */
export function findPddlDomainFile(problemFile: string): string | undefined {
  const { existsSync } = nodeBuiltin("node:fs", "findPddlDomainFile");
  const { basename, dirname, extname, join } = nodeBuiltin("node:path", "findPddlDomainFile");
  const folder = dirname(problemFile);
  const name = basename(problemFile);
  const suffix = extname(name);
  const stem = name.slice(0, name.length - suffix.length);
  const candidates = ["domain.pddl", `${stem}-domain${suffix}`, `${name.slice(0, 3)}-domain.pddl`, `domain_${name}`, `domain-${name}`];
  for (const candidate of candidates) {
    const path = join(folder, candidate);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/**
 * The problem files of a benchmark folder, in natural order (`p2` before
 * `p10`): every `.pddl` file whose name does not hold `domain` (domain
 * files are named so in every IPC folder: `domain.pddl`, `p01-domain.pddl`,
 * `domain_p01.pddl`, `domain-nosplit.pddl`).
 *
 * @example
 * ```ts
 * listPddlProblems("benchmarks/gripper").slice(0, 2); // ["prob01.pddl", "prob02.pddl"]
 * ```
 */
export function listPddlProblems(folder: string): string[] {
  const { readdirSync } = nodeBuiltin("node:fs", "listPddlProblems");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".pddl") && !f.includes("domain"))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}
