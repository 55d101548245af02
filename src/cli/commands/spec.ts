/**
 * The CLI's commands and options, declared once: `parseArgs` reads the
 * option table, and the help text is generated from the same entries so the
 * two never drift apart.
 */

import { HEURISTICS } from "../../planner/heuristics/registry.js";
import { extensionsFor } from "../extension-formats.js";

/** One option of a command. */
export interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  readonly type: "string" | "boolean";
  /** Placeholder in help, e.g. `<json|@file>`. */
  readonly value?: string;
  readonly help: string;
}

/** One command. */
export interface CommandSpec {
  readonly name: CommandName;
  readonly summary: string;
  readonly usage: string;
  readonly description: string;
  /** Accepted `--format` values; the first is the default unless `defaultFormat` says otherwise. */
  readonly formats: readonly string[];
  readonly defaultFormat: string;
  readonly options: readonly OptionSpec[];
  readonly examples: readonly string[];
  /** What the one positional argument is: a domain (the default) or a folder to write into. */
  readonly operand?: "domain" | "dir";
}

export type CommandName = "plan" | "actions" | "explain" | "visualize" | "run" | "inspect" | "deploy-init";

export const PLAN_FORMATS = ["ascii", "json", "mermaid", "dot", "gantt", "mermaid-gantt", "html", "png", "gantt-png"] as const;

const PDDL: OptionSpec = {
  name: "pddl",
  type: "boolean",
  help: "Read a PDDL domain and problem (two files) instead of a langgoap domain; the plan prints in the IPC's format. Several problems after the domain are solved one after the other in this process (each plan under a '; problem <file>' line): only the first pays the cold start.",
};
const GOAL: OptionSpec = {
  name: "goal",
  type: "string",
  value: "<json|@file>",
  help: 'Goal instead of the domain\'s: conditions like \'{"is_hungry": false}\' or goal options {"conditions": {...}, "constraints": [...]}. @path reads a JSON or YAML file.',
};
const STATE: OptionSpec = {
  name: "state",
  type: "string",
  value: "<json|@file>",
  help: "Facts merged over the domain's start state, e.g. '{\"has_axe\": false}'. @path reads a JSON or YAML file.",
};
const STRATEGY: OptionSpec = {
  name: "strategy",
  short: "s",
  type: "string",
  value: "<name>",
  help: "astar (optimal; proves when there is no plan) | pipeline (A*, then MILP refinement: constraints, objectives, schedules) | mcts (Monte Carlo tree search). Default: astar, or pipeline when the goal has constraints, objectives or metrics.",
};
const HEURISTIC: OptionSpec = {
  name: "heuristic",
  type: "string",
  value: "<name>",
  help: `A* heuristic: ${HEURISTICS.map((h) => `${h.name} (${h.summary})`).join(" | ")}. Default by domain: lmcut on boolean domains of 32 actions or more; hmax switching to lmcut after 300 expansions on smaller boolean ones; opcount on numeric ones with inc/dec; hmax otherwise and for plans of 500+ steps.`,
};
const PRUNING: OptionSpec = {
  name: "pruning",
  type: "string",
  value: "<name>",
  help: "A* partial-order pruning: auto (strong stubborn sets on boolean domains of 32 actions or more, searched with hmax, lmcut or opcount) | stubborn-sets | none. Plans stay optimal; pruning switches itself off where it removes few successors.",
};
const BUDGET: OptionSpec = {
  name: "budget",
  type: "string",
  value: "<n|time>",
  help: "Search budget. A whole number counts steps: A* node expansions, MCTS iterations (default 1000). A number with ms or s is wall-clock time (e.g. 500ms, 2s): A* stops, MCTS stops, the pipeline bounds each solver phase. Without it A* stops after 10s or 1,000,000 states held. Exhausting a budget exits 4.",
};
const MAX_STATES: OptionSpec = {
  name: "max-states",
  type: "string",
  value: "<n|none>",
  help: "States an A* search may hold before it stops (exit 4), bounding its memory. Default: 1,000,000 (fewer for wide states, within 256 MB); none lifts the cap.",
};
const SEED: OptionSpec = {
  name: "seed",
  type: "string",
  value: "<n>",
  help: "Seed of MCTS and of the run's generator (default 0): same seed, same result.",
};
const FORMAT = (formats: readonly string[], fallback: string): OptionSpec => ({
  name: "format",
  short: "f",
  type: "string",
  value: "<format>",
  help: `${formats.join(" | ")}. Default: inferred from the --output extension (${extensionsFor(formats)}), else ${fallback}.`,
});
const OUTPUT: OptionSpec = {
  name: "output",
  short: "o",
  type: "string",
  value: "<file>",
  help: "Write the result to this file (folders are created) instead of stdout.",
};
const OPEN: OptionSpec = {
  name: "open",
  type: "boolean",
  help: "Open the result in the default browser or viewer once written. Without --output it is written to a temporary file first; the format defaults to html.",
};
const WIDTH: OptionSpec = {
  name: "width",
  type: "string",
  value: "<n>",
  help: "Width of the text Gantt chart in characters, 10 to 1000 (default 60).",
};
const TITLE: OptionSpec = {
  name: "title",
  type: "string",
  value: "<text>",
  help: "Title of the HTML report (default: the domain reference).",
};
const STATS: OptionSpec = {
  name: "stats",
  type: "boolean",
  help: 'After the search, print its figures as one JSON line on stderr: {"status", "cost", "steps", "expansions", "generated", "loadMs", "planMs", "searchMs", "heuristic"} (loadMs: reading and grounding the input; planMs: the planner\'s whole call, compiling included; searchMs: its search loop alone, as Fast Downward\'s "Search time" counts, null when no search ran).',
};
const HELP: OptionSpec = { name: "help", short: "h", type: "boolean", help: "Show this help." };

const FORMAT_NOTES =
  "Formats: ascii (text tree), json, mermaid (flowchart), dot (Graphviz), gantt (text Gantt chart), mermaid-gantt, html (self-contained report page: open it in a browser, works offline), png (the plan graph as a picture), gantt-png (the Gantt chart as a picture; PNG needs -o <file.png> or --open, and the @resvg/resvg-js package). Gantt formats need actions with durationMs; the plan is scheduled first.";

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "plan",
    summary: "Find a plan for the goal and print it",
    usage: "langgoap plan <domain> [options]  |  langgoap plan --pddl <domain.pddl> <problem.pddl>... [options]",
    description: `Searches for the cheapest plan from the start state to the goal. With --pddl, reads a PDDL domain and problem (what Fast Downward's translator reads: STRIPS, :typing, constants, :negative-preconditions, :equality, :action-costs, quantified and disjunctive conditions, conditional and universal effects), grounds them and prints the plan in the IPC's format (--format ipc, the default there). ${FORMAT_NOTES}`,
    formats: [...PLAN_FORMATS, "ipc"],
    defaultFormat: "ascii",
    options: [
      PDDL,
      GOAL,
      STATE,
      STRATEGY,
      HEURISTIC,
      PRUNING,
      BUDGET,
      MAX_STATES,
      SEED,
      FORMAT([...PLAN_FORMATS, "ipc"], "ascii"),
      OUTPUT,
      OPEN,
      WIDTH,
      STATS,
      HELP,
    ],
    examples: [
      "langgoap plan examples/domains/village.yaml",
      "langgoap plan examples/domains/village.yaml --goal '{\"is_tired\": false}' --state '{\"is_tired\": true}'",
      "langgoap plan examples/domains/village.yaml --format json -o plan.json",
      "langgoap plan my-actions.js#domain --strategy mcts --budget 5000",
      "langgoap plan --pddl bench/ipc/blocks/domain.pddl bench/ipc/blocks/probBLOCKS-4-0.pddl",
      "langgoap plan --pddl bench/ipc/depot/domain.pddl bench/ipc/depot/p03.pddl --budget 30s --stats",
      "langgoap plan --pddl bench/ipc/blocks/domain.pddl bench/ipc/blocks/probBLOCKS-4-*.pddl",
    ],
  },
  {
    name: "actions",
    summary: "List the domain's actions",
    usage: "langgoap actions <domain> [options]",
    description: "Prints every action with its cost, preconditions and effects (and durations and resources when declared).",
    formats: ["ascii", "json"],
    defaultFormat: "ascii",
    options: [FORMAT(["ascii", "json"], "ascii"), OUTPUT, HELP],
    examples: ["langgoap actions examples/domains/village.yaml", "langgoap actions examples/domains/village.yaml --format json"],
  },
  {
    name: "explain",
    summary: "Say whether the goal is reachable, and why not",
    usage: "langgoap explain <domain> [options]",
    description:
      "Prints the goal and start state, then either the plan's length and cost or why no plan exists: goal conditions no action produces, preconditions nothing establishes, actions that can never run, and a suggestion. Exits 1 when there is no plan.",
    formats: ["ascii", "json"],
    defaultFormat: "ascii",
    options: [GOAL, STATE, STRATEGY, HEURISTIC, PRUNING, BUDGET, MAX_STATES, SEED, FORMAT(["ascii", "json"], "ascii"), OUTPUT, HELP],
    examples: ["langgoap explain examples/domains/village.yaml --goal '{\"has_gold\": true}'"],
  },
  {
    name: "visualize",
    summary: "Render the plan (Mermaid, DOT, Gantt, HTML report) or the A* search tree",
    usage: "langgoap visualize <domain> [options]",
    description: `Plans, then renders the plan. With --search-tree, renders the A* search tree instead (DOT: one node per expansion, the plan's path in bold). ${FORMAT_NOTES}`,
    formats: PLAN_FORMATS,
    defaultFormat: "mermaid",
    options: [
      GOAL,
      STATE,
      STRATEGY,
      HEURISTIC,
      PRUNING,
      BUDGET,
      MAX_STATES,
      SEED,
      FORMAT(PLAN_FORMATS, "mermaid"),
      OUTPUT,
      OPEN,
      WIDTH,
      TITLE,
      { name: "search-tree", type: "boolean", help: "Render the A* search tree as DOT instead of the plan (astar only)." },
      {
        name: "max-nodes",
        type: "string",
        value: "<n>",
        help: "Search tree: draw at most this many expansions, 1 to 100000 (default 500).",
      },
      HELP,
    ],
    examples: [
      "langgoap visualize examples/domains/village.yaml --open",
      "langgoap visualize examples/domains/village.yaml --format html -o plan.html",
      "langgoap visualize examples/domains/village.yaml -o plan.mmd",
      "langgoap visualize examples/domains/kitchen.yaml --format gantt",
      "langgoap visualize examples/domains/village.yaml --search-tree -o search.dot && dot -Tsvg search.dot > search.svg",
    ],
  },
  {
    name: "run",
    summary: "Execute the plan in a LangGraph GoapGraph and report the run",
    usage: "langgoap run <domain> [options]",
    description:
      "Runs the goal through a real LangGraph graph (planner → executor → observer, replanning when the world deviates). Actions from domain files have no code: their declared effects are applied. Modules may export actions with execute functions, which run for real. Exits 0 when the goal is achieved, 1 otherwise. The html format is a report of the run: plan, Gantt charts, replans, execution history and trace events.",
    formats: ["ascii", "json", "html"],
    defaultFormat: "ascii",
    options: [
      GOAL,
      STATE,
      STRATEGY,
      HEURISTIC,
      PRUNING,
      BUDGET,
      MAX_STATES,
      SEED,
      FORMAT(["ascii", "json", "html"], "ascii"),
      OUTPUT,
      OPEN,
      TITLE,
      HELP,
    ],
    examples: [
      "langgoap run examples/domains/village.yaml",
      "langgoap run examples/domains/village.yaml --format html -o run.html",
      "langgoap run examples/domains/village.yaml --open",
    ],
  },
  {
    name: "inspect",
    summary: "Watch the goal's run live in a local web page (the inspector)",
    usage: "langgoap inspect <domain> [options]",
    description:
      "Serves the live inspector on 127.0.0.1 and prints its address: the first planning call's search tree (g, h, f per expansion, or why there is no plan), then the goal run through a real LangGraph graph step by step (plan graph with the step in progress, preconditions and effects with their values now, world state with per-step changes, replans with reasons, planning figures). With --history the run is recorded in a SQLite execution history and the finished runs there are listed. Serves until Ctrl-C (or for --serve-for); exits like run.",
    formats: [],
    defaultFormat: "",
    options: [
      GOAL,
      STATE,
      STRATEGY,
      HEURISTIC,
      PRUNING,
      BUDGET,
      MAX_STATES,
      SEED,
      TITLE,
      { name: "port", type: "string", value: "<n>", help: "Port on 127.0.0.1, 0 to 65535 (default 0: any free port)." },
      {
        name: "step-delay",
        type: "string",
        value: "<time>",
        help: "Pause before each action so the run can be followed, e.g. 500ms or 2s (default 0).",
      },
      {
        name: "history",
        type: "string",
        value: "<file.sqlite>",
        help: "SQLite execution history: the run is recorded there and its finished runs are listed (needs better-sqlite3).",
      },
      {
        name: "serve-for",
        type: "string",
        value: "<time>",
        help: "Stop serving this long after the run ends, e.g. 30s (default: until Ctrl-C).",
      },
      HELP,
    ],
    examples: [
      "langgoap inspect examples/domains/village.yaml --step-delay 1s",
      "langgoap inspect examples/domains/village.yaml --port 7300 --history runs.sqlite",
    ],
  },
  {
    name: "deploy-init",
    summary: "Write a project that serves your actions with the LangGraph API server",
    usage: "langgoap deploy-init <dir> [options]",
    description:
      "Scaffolds a deployable project in <dir>: src/actions.ts (a starter domain to replace with your actions), src/graph.ts (the served graph: input { goal, worldState }, output { status, worldState, plan, executionHistory }), langgraph.json, package.json, src/server.ts (a self-hosted server on PostgreSQL that scales to several processes), tsconfig.json and a README. Existing files are left alone unless --force is given. Exits 0 when written, 2 on bad input.",
    formats: [],
    defaultFormat: "",
    operand: "dir",
    options: [
      {
        name: "graph-id",
        type: "string",
        value: "<id>",
        help: "Graph id in langgraph.json (letters, digits, _ and -). Default: the folder's name.",
      },
      {
        name: "langgoap",
        type: "string",
        value: "<version>",
        help: "The langgoap dependency written to package.json: a range or file:<tarball>. Default: ^ this version.",
      },
      { name: "force", type: "boolean", help: "Overwrite files that already exist." },
      HELP,
    ],
    examples: [
      "langgoap deploy-init my-agent",
      "langgoap deploy-init services/publisher --graph-id publisher",
      "cd my-agent && npm install && npm run dev",
    ],
  },
];

/** The spec of `name`, if it is a command. */
export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}
