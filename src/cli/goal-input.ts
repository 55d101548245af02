import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Conditions } from "../core/conditions.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import { isFact, type WorldState } from "../core/facts.js";
import { GoalSpec, type GoalSpecOptions, MultiGoal } from "../core/goal.js";
import { checkFactName, isPlainRecord } from "../core/names.js";

/** The JSON/YAML reader (and the YAML package) load only when an option carries data. */
function loadDataText() {
  return import("../core/domain-text.js");
}

function wrap<T>(where: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof LangGoapError)
      throw new LangGoapError(error.code, `${where}: ${error.message}`, { ...error.details, where }, { cause: error });
    throw error;
  }
}

/**
 * A goal from user input: a `GoalSpec`, goal options `{ conditions, ... }`,
 * or bare conditions `{ key: value }`. An object with a `conditions` key is
 * always the options form, so `{ "conditions": "x" }` is bad input, not a
 * condition on a fact named "conditions". `where` names the input in errors.
 */
export function toGoal(raw: unknown, where: string): GoalSpec {
  if (raw instanceof GoalSpec) return raw;
  if (raw instanceof MultiGoal) {
    throw new LangGoapError("INVALID_GOAL", `${where}: a MultiGoal cannot be planned by the CLI; give one goal`, { where });
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new LangGoapError(
      "INVALID_GOAL",
      `${where}: expected an object of goal conditions like {"has_food": true}, got ${describeValue(raw)}`,
      {
        where,
      },
    );
  }
  const record = raw as Record<string, unknown>;
  const isOptions = Object.hasOwn(record, "conditions");
  if (isOptions && !isPlainRecord(record.conditions)) {
    throw new LangGoapError(
      "INVALID_GOAL",
      `${where}: $.conditions must be an object of conditions like {"has_food": true}, got ${describeValue(record.conditions)}`,
      { where, path: "$.conditions" },
    );
  }
  return wrap(where, () => new GoalSpec(isOptions ? (record as GoalSpecOptions) : { conditions: record as Conditions }));
}

/** A world state from user input: an object whose values are facts (booleans, finite numbers, strings, null) or JSON. */
export function toState(raw: unknown, where: string): WorldState {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new LangGoapError("INVALID_STATE", `${where}: expected an object of facts like {"has_axe": true}, got ${describeValue(raw)}`, {
      where,
    });
  }
  for (const [key, value] of Object.entries(raw)) {
    checkFactName(key, where, "INVALID_STATE");
    if (typeof value === "number" && !isFact(value)) {
      throw new LangGoapError("INVALID_STATE", `${where}: fact "${key}" must be a finite number, got ${describeValue(value)}`, {
        where,
        key,
      });
    }
  }
  return { ...(raw as WorldState) };
}

/**
 * The value of `--goal` or `--state`: inline strict JSON, or `@path` to a
 * JSON file (strict) or YAML file. Either way JSON data nested at most
 * `MAX_NESTING_DEPTH` levels.
 */
export async function readJsonOption(text: string, option: string, cwd: string): Promise<unknown> {
  if (text.startsWith("@")) {
    const file = text.slice(1);
    let content: string;
    try {
      content = await readFile(resolve(cwd, file), "utf8");
    } catch (error) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `--${option}: cannot read "${file}": ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
        {
          option,
          file,
        },
      );
    }
    const { formatOfName, parseDataText } = await loadDataText();
    return parseDataText(content, { format: formatOfName(file), code: "INVALID_OPTION", label: `--${option}: "${file}": ` });
  }
  const { parseDataText } = await loadDataText();
  try {
    return parseDataText(text, { format: "json", code: "INVALID_OPTION" });
  } catch (error) {
    const reason = (error as LangGoapError).details?.reason;
    if (reason !== "invalid_json") {
      // Valid JSON that nests too deep, repeats a key or rounds an integer: the syntax hint would mislead.
      throw new LangGoapError("INVALID_OPTION", `--${option}: ${(error as Error).message}`, {
        ...(error as LangGoapError).details,
        option,
      });
    }
    throw new LangGoapError(
      "INVALID_OPTION",
      `--${option}: ${(error as Error).message}; write it like '{"has_food": true}' or use @file.json`,
      { option, value: text },
      { cause: error },
    );
  }
}
