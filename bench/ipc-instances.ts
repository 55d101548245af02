/**
 * Which IPC instances the ipc bench runs, and where their files are.
 *
 * The domains: `BENCH_IPC_DOMAINS` (comma-separated folder names), else the
 * list in bench/ipc/domains.txt (the IPC optimal STRIPS suite, 62 folders of
 * the downward-benchmarks collection). Their folder: `BENCH_IPC_DIR` (a
 * checkout of github:aibasel/downward-benchmarks), else bench/ipc, which
 * holds six of them; a listed domain with no folder there is reported as
 * missing, never silently dropped. The instances of a domain: its problem
 * files in natural order, the first `BENCH_IPC_PROBLEMS` (default 10;
 * `all` for every one; `A-B` for the A-th to the B-th, counted from 1, so
 * a later run can take the instances an earlier one left). A problem's domain file is found by Fast Downward's
 * own naming rules (its driver's `find_domain_path`, as findPddlDomainFile), so a folder with one
 * domain file per problem works as it does there.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findPddlDomainFile, listPddlProblems } from "../src/pddl/find-domain-file.js";

const here = dirname(fileURLToPath(import.meta.url));

export interface IpcInstance {
  /** `<domain folder>/<problem file>`: the key of FD figures and of the table. */
  readonly id: string;
  readonly domain: string;
  readonly domainFile: string;
  readonly problemFile: string;
}

export interface IpcSelection {
  readonly root: string;
  readonly instances: readonly IpcInstance[];
  /** Listed domains with no folder under `root`. */
  readonly missingDomains: readonly string[];
  /** Problems whose domain file is not there (the collection's snapshot lacks a few). */
  readonly missingDomainFiles: readonly string[];
}

export function listedDomains(): string[] {
  const given = process.env.BENCH_IPC_DOMAINS;
  if (given)
    return given
      .split(",")
      .map((d) => d.trim())
      .filter(Boolean);
  return readFileSync(join(here, "ipc", "domains.txt"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** BENCH_IPC_PROBLEMS as a slice of a domain's problems: `N`, `all` or `A-B` (1-based, inclusive). */
export function problemRange(value: string): [number, number] {
  if (value === "all") return [0, Infinity];
  const range = /^(\d+)-(\d+)$/.exec(value);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (from >= 1 && to >= from) return [from - 1, to];
  } else if (/^\d+$/.test(value) && Number(value) >= 1) {
    return [0, Number(value)];
  }
  throw new Error(`BENCH_IPC_PROBLEMS must be a count (10), all, or a range of instances counted from 1 (3-10); got '${value}'`);
}

export function selectIpcInstances(): IpcSelection {
  const root = process.env.BENCH_IPC_DIR ?? join(here, "ipc");
  const [from, to] = problemRange(process.env.BENCH_IPC_PROBLEMS ?? "10");
  const instances: IpcInstance[] = [];
  const missingDomains: string[] = [];
  const missingDomainFiles: string[] = [];
  for (const domain of listedDomains()) {
    const folder = join(root, domain);
    if (!existsSync(folder)) {
      missingDomains.push(domain);
      continue;
    }
    for (const problem of listPddlProblems(folder).slice(from, to)) {
      const problemFile = join(folder, problem);
      const domainFile = findPddlDomainFile(problemFile);
      if (domainFile === undefined) missingDomainFiles.push(`${domain}/${problem}`);
      else instances.push({ id: `${domain}/${problem}`, domain, domainFile, problemFile });
    }
  }
  return { root, instances, missingDomains, missingDomainFiles };
}
