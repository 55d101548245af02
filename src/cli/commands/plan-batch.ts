/**
 * `langgoap plan --pddl domain.pddl p1.pddl p2.pddl …`: the problems one
 * after the other in this process, so only the first pays the cold start
 * (loading, and the JIT compiling the reader, grounder and search): each
 * later problem is read, grounded and searched by warm code.
 */
import { LangGoapError } from "../../core/errors.js";
import { createContext } from "../context.js";
import { EXIT } from "../exit.js";
import type { CliIo } from "../io.js";
import type { ParsedCommand } from "../options.js";
import { planCommand } from "./plan.js";

/**
 * Solves each problem of `args.pddlProblems` as `plan --pddl` would one,
 * each plan preceded on stdout by the comment line `; problem <path>`. A
 * problem that fails (bad PDDL, no plan, budget) is reported and the next
 * one runs; Ctrl-C stops the batch. Exit code: 0 when every problem got a
 * plan, else the first failing problem's.
 */
export async function planBatchCommand(io: CliIo, args: ParsedCommand): Promise<number> {
  let exit: number = EXIT.OK;
  for (const problem of args.pddlProblems) {
    io.stdout(`; problem ${problem}\n`);
    let code: number;
    try {
      code = await planCommand(await createContext(io, { ...args, pddlProblem: problem }, true));
    } catch (error) {
      if (!(error instanceof LangGoapError)) throw error;
      io.stderr(`langgoap: error: ${error.message}\n`);
      code = EXIT.BAD_INPUT;
    }
    if (exit === EXIT.OK) exit = code;
    if (code === EXIT.ABORTED || io.signal?.aborted) return EXIT.ABORTED;
  }
  return exit;
}
