import { maxOf } from "../core/extremes.js";
import { COMMANDS, type CommandSpec, type OptionSpec } from "./commands/spec.js";
import { sampleDomainsDir } from "./shell-path.js";

const WIDTH = 100;

function wrap(text: string, indent: number, width = WIDTH): string {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : " ".repeat(indent) + l)).join("\n");
}

function optionLabel(option: OptionSpec): string {
  const flag = `${option.short ? `-${option.short}, ` : "    "}--${option.name}`;
  return option.value ? `${flag} ${option.value}` : flag;
}

function table(rows: readonly (readonly [string, string])[], indent = 2): string {
  const column = maxOf(rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `${" ".repeat(indent)}${left.padEnd(column)}${wrap(right, indent + column)}`).join("\n");
}

/** Help names the shipped sample domains by a path that exists from the working directory. */
function withSamples(text: string, cwd: string): string {
  return text.replaceAll("examples/domains/", `${sampleDomainsDir(cwd)}/`);
}

const DOMAINS = table([
  ["file.yaml | file.yml | file.json", "A domain file: { facts?, state?, goal?, actions } (samples: examples/domains/)."],
  [
    "module.js#name",
    "An export of a JavaScript module (TypeScript under tsx): an array of actions, a domain object { actions, state?, goal?, facts? }, or a function returning either.",
  ],
  ["module.js", "The module's default export."],
]);

const EXIT_CODES = table([
  ["0", "Plan found (run: goal achieved; actions: listed)."],
  ["1", "No plan: the search proved none exists (the explanation is printed), or the run failed."],
  [
    "2",
    "Bad input: unknown command or option, unreadable or invalid domain (the message names the file, the JSON path and the reason), unknown fact in the goal, bad --goal/--state JSON.",
  ],
  ["3", "Internal error (a bug in langgoap: please report it with the message)."],
  [
    "4",
    "Search budget exhausted: no plan found within the budget (default 10s or 1,000,000 states; --budget changes it), which proves nothing either way. The figures are printed.",
  ],
  ["5", "Denied: the run ended denied (a human refused an action and no plan reaches the goal without it)."],
  ["130", "Aborted by Ctrl-C: what the search or run had reached is printed."],
]);

function firstOfEachName(options: readonly OptionSpec[]): OptionSpec[] {
  const seen = new Set<string>();
  return options.filter((o) => !seen.has(o.name) && seen.add(o.name));
}

/** Commands grouped by the formats they accept. */
function formatsByCommand(): [string, string][] {
  const groups = new Map<string, string[]>();
  for (const c of COMMANDS) {
    const key = c.formats.join(" | ");
    groups.set(key, [...(groups.get(key) ?? []), c.name]);
  }
  return [...groups].filter(([formats]) => formats !== "").map(([formats, names]) => [names.join(", "), formats]);
}

/** `langgoap --help`; `cwd` is where paths to the sample domains are typed from. */
export function mainHelp(version: string, cwd: string): string {
  const text = [
    `langgoap ${version}: goal-oriented action planning from the command line.`,
    "",
    "Usage:",
    "  langgoap <command> <domain> [options]",
    "  langgoap deploy-init <dir> [options]",
    "  langgoap <command> --help",
    "  langgoap --help | --version",
    "",
    "Commands:",
    table(COMMANDS.map((c) => [c.name, c.summary])),
    "",
    "Domain:",
    DOMAINS,
    "",
    "Options (each command's --help lists the ones it takes):",
    table(firstOfEachName(COMMANDS.flatMap((c) => c.options)).map((o) => [optionLabel(o), o.help])),
    "",
    "Formats (--format) by command:",
    table(formatsByCommand()),
    "",
    "Exit codes:",
    EXIT_CODES,
    "",
    "Progress: searches and runs longer than a second print a progress line on stderr.",
    "",
    "Quick start:",
    "  langgoap plan examples/domains/village.yaml",
    "  langgoap visualize examples/domains/village.yaml --format html -o plan.html   # then open plan.html",
    "  langgoap deploy-init my-agent   # a project that serves your actions with the LangGraph API server",
    "",
  ].join("\n");
  return withSamples(text, cwd);
}

/** `langgoap <command> --help`; `cwd` is where paths to the sample domains are typed from. */
export function commandHelp(spec: CommandSpec, cwd: string): string {
  const takesDomain = spec.operand !== "dir";
  const text = [
    `${spec.summary}.`,
    "",
    "Usage:",
    `  ${spec.usage}`,
    "",
    wrap(spec.description, 0),
    "",
    ...(takesDomain ? ["Domain:", DOMAINS, ""] : []),
    "Options:",
    table(spec.options.map((o) => [optionLabel(o), o.help])),
    "",
    ...(takesDomain ? ["Exit codes:", EXIT_CODES, ""] : []),
    "Examples:",
    ...spec.examples.map((e) => `  ${e}`),
    "",
  ].join("\n");
  return withSamples(text, cwd);
}
