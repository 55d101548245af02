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
 * `domain_p01.pddl`, `domain-nosplit.pddl`) and whose text does not define
 * a domain (some collections keep a domain under another name, such as
 * elevators-00-adl's `m10-strips.pddl`).
 *
 * @example
 * ```ts
 * listPddlProblems("benchmarks/gripper").slice(0, 2); // ["prob01.pddl", "prob02.pddl"]
 * ```
 */
export function listPddlProblems(folder: string): string[] {
  const { readdirSync } = nodeBuiltin("node:fs", "listPddlProblems");
  const { join } = nodeBuiltin("node:path", "listPddlProblems");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".pddl") && !f.includes("domain") && !definesDomain(join(folder, f)))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** Bytes read from the start of a file to see what it defines: comments and the header fit in far less. */
const HEAD_BYTES = 16_384;

/** True when the file's first definition is `(define (domain …`; comments (`;` to the end of a line) are skipped. */
function definesDomain(path: string): boolean {
  const { openSync, readSync, closeSync } = nodeBuiltin("node:fs", "listPddlProblems");
  const buffer = new Uint8Array(HEAD_BYTES);
  const fd = openSync(path, "r");
  let length: number;
  try {
    length = readSync(fd, buffer, 0, HEAD_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const head = new TextDecoder().decode(buffer.subarray(0, length)).replace(/;[^\n]*/g, "");
  return /^\s*\(\s*define\s*\(\s*domain\b/i.test(head);
}
