import { LangGoapError } from "../core/errors.js";
import { COMMANDS, type CommandName, commandSpec } from "./commands/spec.js";
import { type CommandContext, createContext } from "./context.js";
import { EXIT } from "./exit.js";
import { commandHelp, mainHelp } from "./help.js";
import type { CliIo } from "./io.js";
import { parseCommand } from "./options.js";
import { packageRoot } from "./package-root.js";
import { terminalSafeIo } from "./terminal-text.js";

/**
 * Each command's code loads when that command runs: `plan --pddl` never
 * loads the graph, LangGraph, the inspector's server or the renderers, so a
 * one-off plan starts in a fraction of the time.
 */
const RUNNERS: Readonly<Record<Exclude<CommandName, "deploy-init">, () => Promise<(ctx: CommandContext) => Promise<number>>>> = {
  plan: async () => (await import("./commands/plan.js")).planCommand,
  actions: async () => (await import("./commands/actions.js")).actionsCommand,
  explain: async () => (await import("./commands/explain.js")).explainCommand,
  visualize: async () => (await import("./commands/visualize.js")).visualizeCommand,
  run: async () => (await import("./commands/run.js")).runCommand,
  inspect: async () => (await import("./commands/inspect.js")).inspectCommand,
};

function version(): string {
  return packageRoot().version;
}

function cwdOf(io: CliIo): string {
  return io.cwd ?? process.cwd();
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number;
      row[j] = Math.min(current + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] as number;
}

function unknownCommand(name: string): LangGoapError {
  const close = COMMANDS.map((c) => c.name).filter((c) => distance(c, name) <= 2);
  const hint = close.length ? `; did you mean ${close.join(" or ")}?` : "";
  return new LangGoapError("INVALID_OPTION", `unknown command "${name}"${hint} Commands: ${COMMANDS.map((c) => c.name).join(", ")}`, {
    usage: true,
  });
}

/**
 * Runs the `langgoap` command line in-process and returns its exit code:
 * 0 plan found (run: goal achieved), 1 no plan (explained on stderr),
 * 2 bad input (the message names the file, JSON path and reason), 3 an
 * internal error, 4 search budget exhausted (no proof either way), 5 a
 * human refused an action no plan can do without (a run ended `denied`),
 * 130 aborted (Ctrl-C). All output goes through `io`, so tests capture it.
 *
 * @example
 * ```ts
 * let out = "";
 * const code = await runCli(["plan", "examples/domains/village.yaml"], {
 *   stdout: (t) => { out += t; },
 *   stderr: () => {},
 * });
 * code; // 0
 * ```
 * @param argv - The arguments after the program name.
 * @param given - Output streams, working directory, clock and abort signal. Everything written to them has control characters from data made visible.
 * @returns The exit code.
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  // Names and values from data reach these streams: no raw control character may.
  const io = terminalSafeIo(given);
  let command: string | undefined;
  try {
    const [first, ...rest] = argv;
    if (first === undefined) {
      io.stderr(mainHelp(version(), cwdOf(io)));
      return EXIT.BAD_INPUT;
    }
    if (first === "--help" || first === "-h" || first === "help") {
      const topic = first === "help" && rest[0] ? commandSpec(rest[0]) : undefined;
      if (first === "help" && rest[0] && !topic) throw unknownCommand(rest[0]);
      io.stdout(topic ? commandHelp(topic, cwdOf(io)) : mainHelp(version(), cwdOf(io)));
      return EXIT.OK;
    }
    if (first === "--version" || first === "-V") {
      io.stdout(`${version()}\n`);
      return EXIT.OK;
    }
    const spec = commandSpec(first);
    if (!spec)
      throw first.startsWith("-")
        ? new LangGoapError("INVALID_OPTION", `expected a command before ${first}`, { usage: true })
        : unknownCommand(first);
    command = spec.name;
    if (spec.name === "deploy-init") {
      const { deployInitCommand, parseDeployInit } = await import("./commands/deploy-init.js");
      const args = parseDeployInit(spec, rest);
      if (args.help) {
        io.stdout(commandHelp(spec, cwdOf(io)));
        return EXIT.OK;
      }
      return await deployInitCommand(args, io);
    }
    const args = parseCommand(spec, rest);
    if (args.help) {
      io.stdout(commandHelp(spec, cwdOf(io)));
      return EXIT.OK;
    }
    if (args.pddlProblems.length > 1) return await (await import("./commands/plan-batch.js")).planBatchCommand(io, args);
    const ctx = await createContext(io, args, spec.name !== "actions");
    const run = await RUNNERS[spec.name]();
    return await run(ctx);
  } catch (error) {
    if (error instanceof LangGoapError) {
      io.stderr(`langgoap: error: ${error.message}\n`);
      if (error.details.usage === true) io.stderr(`Run "langgoap ${command ? `${command} ` : ""}--help" for usage.\n`);
      return EXIT.BAD_INPUT;
    }
    io.stderr(
      `langgoap: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the command line that caused it.\n`,
    );
    return EXIT.INTERNAL;
  }
}

export { EXIT } from "./exit.js";
