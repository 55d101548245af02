import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { LangGoapError } from "../core/errors.js";
import { toGoalSpec } from "../core/goal.js";
import { loadPddl } from "../pddl/index.js";
import type { LoadedDomain } from "./source.js";

async function readText(file: string, cwd: string, what: string): Promise<string> {
  try {
    return await readFile(resolve(cwd, file), "utf8");
  } catch (error) {
    throw new LangGoapError(
      "INVALID_DOMAIN",
      `cannot read the PDDL ${what} "${file}": ${(error as Error).message}`,
      { source: file },
      { cause: error },
    );
  }
}

/** `plan --pddl domain.pddl problem.pddl`: the grounded PDDL task as a domain (errors name file, line and column). */
export async function loadPddlSource(domainFile: string, problemFile: string, cwd: string): Promise<LoadedDomain> {
  const [domainText, problemText] = await Promise.all([readText(domainFile, cwd, "domain"), readText(problemFile, cwd, "problem")]);
  const task = loadPddl(domainText, problemText, { domainFile, problemFile });
  return {
    source: `${domainFile} ${problemFile}`,
    actions: task.actions,
    state: { ...task.state },
    goal: toGoalSpec(task.goal),
    facts: undefined,
  };
}
