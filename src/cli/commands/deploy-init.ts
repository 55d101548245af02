import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { LangGoapError } from "../../core/errors.js";
import { scaffoldDeployment } from "../../integrations/index.js";
import type { CliIo } from "../io.js";
import { shellPath } from "../shell-path.js";
import type { CommandSpec } from "./spec.js";

/** A `deploy-init` command line, parsed. */
export interface DeployInitArgs {
  readonly help: boolean;
  readonly dir: string;
  readonly graphId: string | undefined;
  readonly langgoap: string | undefined;
  readonly force: boolean;
}

function usage(message: string): LangGoapError {
  return new LangGoapError("INVALID_OPTION", message, { command: "deploy-init", usage: true });
}

/** Parses `deploy-init <dir> [--graph-id id] [--langgoap version] [--force]`. */
export function parseDeployInit(spec: CommandSpec, argv: readonly string[]): DeployInitArgs {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const o of spec.options) options[o.name] = { type: o.type, ...(o.short ? { short: o.short } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usage((error as Error).message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help === true) return { help: true, dir: "", graphId: undefined, langgoap: undefined, force: false };
  if (parsed.positionals.length !== 1) {
    throw usage(
      parsed.positionals.length === 0
        ? "deploy-init: missing <dir> (the folder to write the project into)"
        : `deploy-init: expected one <dir>, got ${parsed.positionals.length}: ${parsed.positionals.join(" ")}`,
    );
  }
  return {
    help: false,
    dir: parsed.positionals[0] as string,
    graphId: values["graph-id"] as string | undefined,
    langgoap: values.langgoap as string | undefined,
    force: values.force === true,
  };
}

/** `langgoap deploy-init`: writes the project and says what to do next. */
export async function deployInitCommand(args: DeployInitArgs, io: CliIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const result = await scaffoldDeployment(resolve(cwd, args.dir), {
    force: args.force,
    ...(args.graphId !== undefined ? { graphId: args.graphId } : {}),
    ...(args.langgoap !== undefined ? { langgoapVersion: args.langgoap } : {}),
  });
  const shown = shellPath(relative(cwd, result.dir) || ".");
  io.stdout(
    [
      `wrote a LangGraph API server project for graph "${result.graphId}" to ${shown}:`,
      ...result.files.map((file) => `  ${file}`),
      "",
      "Next:",
      `  cd ${shown}`,
      "  npm install",
      "  npm run dev          # LangGraph API server with Studio on http://localhost:2024",
      "Then replace src/actions.ts with your own actions. README.md says how to self-host on PostgreSQL.",
      "",
    ].join("\n"),
  );
  return 0;
}
