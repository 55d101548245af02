import { parseArgs } from "node:util";
import { describeValue, LangGoapError, type LangGoapErrorCode } from "../core/errors.js";
import { HEURISTIC_NAMES, type HeuristicName } from "../planner/heuristics/registry.js";
import { PRUNING_NAMES, type PruningName } from "../planner/plan-options.js";
import { parseBudget, type SearchBudget } from "./budget.js";
import type { CommandSpec } from "./commands/spec.js";
import { EXTENSION_FORMATS } from "./extension-formats.js";
import { STRATEGIES, type StrategyName } from "./search.js";

/** A command line, parsed and checked. */
export interface ParsedCommand {
  readonly help: boolean;
  readonly domain: string;
  /** With `--pddl`: the PDDL problem file (`domain` is the PDDL domain file); the first of `pddlProblems`. */
  readonly pddlProblem: string | undefined;
  /** With `--pddl`: every problem file given, solved one after the other in this process (`plan` only). */
  readonly pddlProblems: readonly string[];
  readonly goal: string | undefined;
  readonly state: string | undefined;
  /** `undefined`: astar, or pipeline for goals with constraints, objectives or metrics. */
  readonly strategy: StrategyName | undefined;
  readonly heuristic: HeuristicName | undefined;
  readonly pruning: PruningName | undefined;
  readonly budget: SearchBudget | undefined;
  /** `--max-states`: states an A* search may hold (`Infinity` for `none`); `undefined`: the default cap. */
  readonly maxStates: number | undefined;
  readonly seed: number;
  readonly format: string;
  readonly output: string | undefined;
  readonly width: number | undefined;
  readonly title: string | undefined;
  readonly searchTree: boolean;
  /** `--stats`: the search's figures as one JSON line on stderr. */
  readonly stats: boolean;
  readonly maxNodes: number | undefined;
  /** Open the written result in the default browser or viewer. */
  readonly open: boolean;
  /** `inspect`'s options. */
  readonly inspect?: InspectOptions;
}

/** The options only `langgoap inspect` takes. */
export interface InspectOptions {
  readonly port: number | undefined;
  readonly stepDelayMs: number | undefined;
  readonly history: string | undefined;
  readonly serveForMs: number | undefined;
}

/** A duration option: `500ms`, `2s`, or a number of milliseconds. */
function durationOf(spec: CommandSpec, option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!match) throw usage(spec, `--${option} must be a duration like 500ms or 2s, got ${JSON.stringify(text)}`, { option });
  return Number(match[1]) * (match[2] === "s" ? 1000 : 1);
}

function usage(spec: CommandSpec, message: string, details: Record<string, unknown> = {}): LangGoapError {
  return new LangGoapError("INVALID_OPTION", message, { command: spec.name, usage: true, ...details });
}

function oneOf<T extends string>(
  spec: CommandSpec,
  option: string,
  value: string,
  allowed: readonly T[],
  code: LangGoapErrorCode = "INVALID_OPTION",
): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new LangGoapError(code, `unknown ${option} ${describeValue(value)} for ${spec.name}; expected one of ${allowed.join(", ")}`, {
    command: spec.name,
    option,
    value,
    allowed,
    usage: true,
  });
}

function integer(spec: CommandSpec, option: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max || text.trim() === "") {
    throw usage(spec, `--${option} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`, { option, min, max });
  }
  return value;
}

/** `--max-states`: a whole number of at least 1, or `none` for no cap. */
function maxStatesOf(spec: CommandSpec, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === "none") return Number.POSITIVE_INFINITY;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1 || text.trim() === "") {
    throw usage(spec, `--max-states must be a whole number of at least 1, or none, got ${JSON.stringify(text)}`, { option: "max-states" });
  }
  return value;
}

/** Widest text Gantt chart, in characters: wider is no chart anyone reads, and 1e9 would exhaust memory. */
const MAX_WIDTH = 1000;
/** Most nodes a search-tree drawing shows. */
const MAX_TREE_NODES = 100_000;

/** The format for an output path's extension, if it implies one. */
export function formatForPath(path: string): string | undefined {
  const dot = path.lastIndexOf(".");
  return dot < 0 ? undefined : EXTENSION_FORMATS[path.slice(dot).toLowerCase()];
}

/**
 * Several PDDL problems in one call (`plan --pddl domain.pddl p1.pddl
 * p2.pddl …`) print their plans one after the other on stdout, in the IPC
 * format: options that write one file, open one page or draw one search
 * are for a single problem.
 */
function checkBatch(spec: CommandSpec, values: Readonly<Record<string, string | boolean | undefined>>): void {
  if (spec.name !== "plan")
    throw usage(spec, `${spec.name} --pddl: expected <domain.pddl> <problem.pddl>, got several problems (plan solves several)`);
  for (const option of ["output", "open", "search-tree"]) {
    if (values[option] !== undefined && values[option] !== false)
      throw usage(spec, `--${option} takes one problem; several problems print their plans on stdout`, { option });
  }
  const format = values.format;
  if (format !== undefined && format !== "ipc")
    throw usage(spec, `--format ${String(format)} takes one problem; several problems print IPC plans (--format ipc)`, {
      option: "format",
    });
}

/**
 * Parses a command's arguments with `node:util` `parseArgs` against its
 * option table and checks every value: unknown options, a missing or extra
 * domain, an unknown strategy, heuristic or format, bad numbers.
 */
export function parseCommand(spec: CommandSpec, argv: readonly string[]): ParsedCommand {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const o of spec.options) options[o.name] = { type: o.type, ...(o.short ? { short: o.short } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usage(spec, (error as Error).message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const text = (name: string): string | undefined => values[name] as string | undefined;
  if (values.help === true) {
    return { help: true } as ParsedCommand;
  }
  const pddl = values.pddl === true;
  if (pddl && parsed.positionals.length < 2) {
    throw usage(spec, `${spec.name} --pddl: expected <domain.pddl> <problem.pddl>, got ${parsed.positionals.length} file(s)`);
  }
  if (pddl && parsed.positionals.length > 2) checkBatch(spec, values);
  if (parsed.positionals.length === 0) throw usage(spec, `${spec.name}: missing <domain> (a .yaml/.json domain file or module.js#export)`);
  if (parsed.positionals.length > 1 && !pddl) {
    throw usage(spec, `${spec.name}: expected one <domain>, got ${parsed.positionals.length}: ${parsed.positionals.join(" ")}`);
  }
  const output = text("output");
  const inferred = output ? formatForPath(output) : undefined;
  // An extension the command cannot write (actions -o list.html) falls back to its default format.
  const open = values.open === true;
  const requested =
    text("format") ??
    (pddl && output === undefined ? "ipc" : undefined) ??
    (inferred && spec.formats.includes(inferred) ? inferred : undefined) ??
    // The search tree is DOT; --open without a file means "show me the report".
    (values["search-tree"] === true ? "dot" : open && output === undefined ? "html" : undefined);
  const strategyText = text("strategy");
  const seedText = text("seed");
  const seed = seedText === undefined ? 0 : Number(seedText);
  if (!Number.isFinite(seed) || seedText?.trim() === "")
    throw usage(spec, `--seed must be a number, got "${seedText}"`, { option: "seed" });
  const budgetText = text("budget");
  return {
    help: false,
    domain: parsed.positionals[0] as string,
    pddlProblem: pddl ? parsed.positionals[1] : undefined,
    pddlProblems: pddl ? parsed.positionals.slice(1) : [],
    goal: text("goal"),
    state: text("state"),
    strategy: strategyText === undefined ? undefined : oneOf(spec, "strategy", strategyText, STRATEGIES, "UNKNOWN_STRATEGY"),
    heuristic: text("heuristic") === undefined ? undefined : oneOf(spec, "heuristic", text("heuristic") as string, HEURISTIC_NAMES),
    pruning: text("pruning") === undefined ? undefined : oneOf(spec, "pruning", text("pruning") as string, PRUNING_NAMES),
    budget: budgetText === undefined ? undefined : parseBudget(budgetText),
    maxStates: maxStatesOf(spec, text("max-states")),
    seed,
    format: requested === undefined ? spec.defaultFormat : oneOf(spec, "format", requested, spec.formats),
    output,
    width: integer(spec, "width", text("width"), 10, MAX_WIDTH),
    title: text("title"),
    searchTree: values["search-tree"] === true,
    stats: values.stats === true,
    maxNodes: integer(spec, "max-nodes", text("max-nodes"), 1, MAX_TREE_NODES),
    open,
    ...(spec.name === "inspect"
      ? {
          inspect: {
            port: integer(spec, "port", text("port"), 0, 65_535),
            stepDelayMs: durationOf(spec, "step-delay", text("step-delay")),
            history: text("history"),
            serveForMs: durationOf(spec, "serve-for", text("serve-for")),
          },
        }
      : {}),
  };
}
