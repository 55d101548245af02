import { LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import { readJsonOption, toGoal, toState } from "./goal-input.js";
import type { CliIo } from "./io.js";
import type { ParsedCommand } from "./options.js";
import { checkOutputPath } from "./output-path.js";
import type { LoadedDomain } from "./source.js";

/** Everything a command works with: the parsed line, the loaded domain, and the goal and start state after overrides. */
export interface CommandContext {
  readonly io: CliIo;
  readonly cwd: string;
  readonly args: ParsedCommand;
  readonly domain: LoadedDomain;
  readonly state: WorldState;
  /** The goal to plan for (`undefined` only for commands that need none). */
  readonly goal: GoalSpec | undefined;
  /**
   * Milliseconds spent reading, parsing and validating the domain and the
   * options: a search's time budget counts them (they cannot be cut short:
   * `JSON.parse` and the schema check are one call each).
   */
  readonly loadMs: number;
}

/** The domain-file schemas (zod) load only for domains that declare facts. */
function loadDomainSchemas() {
  return import("../core/domain.js");
}

/** Re-labels a validation error of an override so it names the option, not the domain's own section. */
function checkOverride(option: "goal" | "state", check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof LangGoapError)) throw error;
    // Paths inside a domain file mean nothing for an option: report the bare reason.
    const message = typeof error.details.reason === "string" ? error.details.reason : error.message;
    throw new LangGoapError(error.code, `--${option}: ${message}`, { ...error.details, option }, { cause: error });
  }
}

/**
 * Checks `--output`, loads the domain and applies `--goal` and `--state`. With declared
 * `facts`, overrides are validated like the domain file itself (an unknown
 * fact is `UNKNOWN_FACT`).
 */
export async function createContext(io: CliIo, args: ParsedCommand, needsGoal: boolean): Promise<CommandContext> {
  const began = performance.now();
  const cwd = io.cwd ?? process.cwd();
  if (args.output !== undefined) await checkOutputPath(args.output, cwd);
  // Loaded on demand: a PDDL run needs neither the YAML reader nor the domain-file schemas, and a domain file no PDDL reader.
  const domain =
    args.pddlProblem === undefined
      ? await (await import("./source.js")).loadSource(args.domain, cwd)
      : await (await import("./pddl-source.js")).loadPddlSource(args.domain, args.pddlProblem, cwd);
  let goal = domain.goal;
  if (args.goal !== undefined) {
    const raw = await readJsonOption(args.goal, "goal", cwd);
    goal = toGoal(raw, "--goal");
    const override = goal;
    if (domain.facts) {
      const { validateDomain } = await loadDomainSchemas();
      checkOverride("goal", () => validateDomain({ actions: [], facts: domain.facts, goal: override }));
    }
  }
  let state = domain.state;
  if (args.state !== undefined) {
    const raw = toState(await readJsonOption(args.state, "state", cwd), "--state");
    if (domain.facts) {
      const { validateDomain } = await loadDomainSchemas();
      checkOverride("state", () => validateDomain({ actions: [], facts: domain.facts, state: raw }));
    }
    state = { ...state, ...raw };
  }
  if (needsGoal && !goal) {
    throw new LangGoapError("INVALID_GOAL", `${domain.source} declares no goal; give one with --goal '{"fact": value}'`, {
      source: domain.source,
    });
  }
  return { io, cwd, args, domain, state, goal, loadMs: performance.now() - began };
}
