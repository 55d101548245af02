/**
 * Finding a benchmark folder's problems and each problem's domain file, by
 * Fast Downward's naming rules: what the ipc bench and the CLI's users
 * point at a collection rely on.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findPddlDomainFile, listPddlProblems } from "../../src/pddl/index.js";

const root = mkdtempSync(join(tmpdir(), "langgoap-find-domain-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const DOMAIN = "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition () :effect (p)))";
const problem = (name: string) => `(define (problem ${name}) (:domain d) (:init) (:goal (p)))`;

function folder(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

describe("listPddlProblems", () => {
  it("lists problem files in natural order and leaves out files named or written as domains", () => {
    const dir = folder("mixed", {
      "domain.pddl": DOMAIN,
      "p10.pddl": problem("p10"),
      "p2.pddl": problem("p2"),
      "p01-domain.pddl": DOMAIN,
      // A domain under a problem-like name, as elevators-00-adl's m10-strips.pddl, behind a comment.
      "m10-strips.pddl": `; the m10 domain\n;; (define (problem not-this))\n  ( DEFINE  ( DOMAIN m10) ${DOMAIN.slice(19)}`,
      "notes.txt": "not PDDL",
    });
    expect(listPddlProblems(dir)).toEqual(["p2.pddl", "p10.pddl"]);
  });

  it("keeps a problem whose comments mention a domain", () => {
    const dir = folder("commented", { "domain.pddl": DOMAIN, "p1.pddl": `; (define (domain x)) is in domain.pddl\n${problem("p1")}` });
    expect(listPddlProblems(dir)).toEqual(["p1.pddl"]);
  });
});

describe("findPddlDomainFile", () => {
  it("follows Fast Downward's naming rules in their order", () => {
    const plain = folder("plain", { "domain.pddl": DOMAIN, "prob01.pddl": problem("p"), "p01-domain.pddl": DOMAIN });
    expect(findPddlDomainFile(join(plain, "prob01.pddl"))).toBe(join(plain, "domain.pddl"));
    const perStem = folder("per-stem", { "p01-domain.pddl": DOMAIN, "p01.pddl": problem("p") });
    expect(findPddlDomainFile(join(perStem, "p01.pddl"))).toBe(join(perStem, "p01-domain.pddl"));
    const airport = folder("airport", { "p01-domain.pddl": DOMAIN, "p01-airport1-p1.pddl": problem("p") });
    expect(findPddlDomainFile(join(airport, "p01-airport1-p1.pddl"))).toBe(join(airport, "p01-domain.pddl"));
    const underscore = folder("underscore", { "domain_p01.pddl": DOMAIN, "p01.pddl": problem("p") });
    expect(findPddlDomainFile(join(underscore, "p01.pddl"))).toBe(join(underscore, "domain_p01.pddl"));
    const dash = folder("dash", { "domain-p01.pddl": DOMAIN, "p01.pddl": problem("p") });
    expect(findPddlDomainFile(join(dash, "p01.pddl"))).toBe(join(dash, "domain-p01.pddl"));
    const none = folder("none", { "p01.pddl": problem("p") });
    expect(findPddlDomainFile(join(none, "p01.pddl"))).toBeUndefined();
  });
});
