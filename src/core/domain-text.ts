import { isPair, isScalar, isSeq, parseDocument, visit } from "yaml";
import { describeValue, LangGoapError, type LangGoapErrorCode } from "./errors.js";
import { findJsonInputProblem, type JsonInputProblem } from "./json-input-check.js";
import { jsonErrorOffset } from "./json-position.js";
import { MAX_NESTING_DEPTH } from "./limits.js";

/** How a text is parsed: strict JSON, YAML, or JSON when it parses as JSON and YAML otherwise. */
export type DataFormat = "json" | "yaml" | "auto";

/** Where a parse error is, 1-based. */
interface TextPosition {
  readonly line: number;
  readonly column: number;
}

function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * The format a file name implies: `.json` is strict JSON, `.yaml`/`.yml` YAML, anything else "auto".
 *
 * @example
 * ```ts
 * formatOfName("village.json"); // "json"
 * formatOfName(undefined);      // "auto"
 * ```
 */
export function formatOfName(name: string | undefined): DataFormat {
  const lower = name?.toLowerCase() ?? "";
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  return "auto";
}

/**
 * The deepest nesting of `[`/`{` in JSON text, scanned without parsing so
 * a hostile file is refused before `JSON.parse` or a recursive walker sees
 * it. Returns the offset where the limit is first passed, or -1.
 */
function jsonTooDeepAt(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

function tooDeep(what: string, code: LangGoapErrorCode, where: string, details: Record<string, unknown>): LangGoapError {
  return new LangGoapError(
    code,
    `${where}${what} nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep; the limit is ${MAX_NESTING_DEPTH} (MAX_NESTING_DEPTH)`,
    { ...details, limit: MAX_NESTING_DEPTH, reason: "too_deep" },
  );
}

/**
 * Checks that `value` is JSON data nested at most {@link MAX_NESTING_DEPTH}
 * levels: plain objects, arrays, strings, finite numbers, booleans and null.
 * YAML tags like `!!set`, `!!binary` or `!!timestamp` produce other values,
 * and code may hand over cycles; both are refused with the JSON path.
 *
 * @example
 * ```ts
 * checkJsonData({ a: [1, "x", null] }, "INVALID_STATE"); // fine
 * checkJsonData({ a: new Set() }, "INVALID_STATE");     // throws: $.a: expected JSON data, got a Set
 * ```
 */
export function checkJsonData(value: unknown, code: LangGoapErrorCode, where = ""): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "$", depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string; depth: number };
    const v = item.value;
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") {
      if (Number.isFinite(v)) continue;
      throw new LangGoapError(code, `${where}${item.path}: ${describeValue(v)} is not a JSON number`, { path: item.path });
    }
    const isArray = Array.isArray(v);
    const proto = typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
    if (!isArray && proto !== Object.prototype && proto !== null) {
      const kind = typeof v === "object" ? ((v as object).constructor?.name ?? "object") : typeof v;
      throw new LangGoapError(code, `${where}${item.path}: expected JSON data, got a ${kind}`, { path: item.path });
    }
    if (item.depth >= MAX_NESTING_DEPTH) {
      const shown = item.path.length > 60 ? `${item.path.slice(0, 60)}…` : item.path;
      throw tooDeep(shown, code, where, { path: item.path });
    }
    if (isArray) {
      const list = v as unknown[];
      for (let i = list.length - 1; i >= 0; i--) stack.push({ value: list[i], path: `${item.path}[${i}]`, depth: item.depth + 1 });
    } else {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: record[key], path: `${item.path}.${key}`, depth: item.depth + 1 });
      }
    }
  }
}

function parseJson(text: string, code: LangGoapErrorCode, label: string): unknown {
  const deepAt = jsonTooDeepAt(text, MAX_NESTING_DEPTH);
  if (deepAt >= 0) {
    const at = positionAt(text, deepAt);
    throw tooDeep(` (line ${at.line}, column ${at.column})`, code, `${label}JSON`, { ...at, path: "$" });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const offset = /at position (\d+)/.exec(message)?.[1];
    const at = positionAt(text, offset === undefined ? jsonErrorOffset(text) : Number(offset));
    // V8 quotes the text after some messages ('Unexpected token 'a', "actions:"... is not valid JSON'): keep the reason only.
    const reason = message.replace(/ in JSON at position \d+.*$/s, "").replace(/, (\.\.\.)?".*$/s, "");
    throw new LangGoapError(
      code,
      `${label}not valid JSON (line ${at.line}, column ${at.column}): ${reason}`,
      { ...at, path: "$", reason: "invalid_json" },
      { cause: error },
    );
  }
  const problem = findJsonInputProblem(text);
  if (problem) throw inputProblem(problem, positionAt(text, problem.offset), code, `${label}JSON`);
  return data;
}

/** The coded error for a duplicate key or an integer no JavaScript number holds exactly. */
function inputProblem(problem: JsonInputProblem, at: TextPosition, code: LangGoapErrorCode, where: string): LangGoapError {
  const place = `${where} (line ${at.line}, column ${at.column})`;
  const details = { ...at, path: problem.path, reason: problem.reason };
  if (problem.reason === "duplicate_key") {
    return new LangGoapError(
      code,
      `${place}: ${problem.path}: key ${JSON.stringify(problem.text)} is given twice; keys must be unique (the first value would be silently dropped)`,
      { ...details, key: problem.text },
    );
  }
  return new LangGoapError(
    code,
    `${place}: ${problem.path}: the integer ${problem.text} is beyond ±${Number.MAX_SAFE_INTEGER} (Number.MAX_SAFE_INTEGER) and would be rounded to ${Number(problem.text)}; write a smaller integer, a string, or an exponent form like 1e20 for an approximate number`,
    { ...details, literal: problem.text },
  );
}

/** The first integer literal in a YAML document that no JavaScript number holds exactly (`1e20`, `2.5e30` are floats by intent). */
function yamlUnsafeInteger(doc: ReturnType<typeof parseDocument>): { problem: JsonInputProblem; offset: number } | undefined {
  let found: { problem: JsonInputProblem; offset: number } | undefined;
  visit(doc, {
    Scalar(_key, node, path) {
      const v = node.value;
      if (typeof v !== "number" || Number.isSafeInteger(v) || !Number.isInteger(v) || node.format === "EXP") return undefined;
      const literal = node.source ?? String(v);
      if (/[.eE]/.test(literal) && !/^[-+]?0[xX]/.test(literal)) return undefined;
      let at = "$";
      path.forEach((step, i) => {
        if (isPair(step) && isScalar(step.key)) {
          const key = String(step.key.value);
          at += /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
        } else if (isSeq(step)) at += `[${step.items.indexOf((path[i + 1] ?? node) as never)}]`;
      });
      found = {
        problem: { reason: "unsafe_integer", offset: node.range?.[0] ?? 0, path: at, text: literal },
        offset: node.range?.[0] ?? 0,
      };
      return visit.BREAK;
    },
  });
  return found;
}

function parseYaml(text: string, code: LangGoapErrorCode, label: string, what: string): unknown {
  let data: unknown;
  try {
    const doc = parseDocument(text);
    // Warnings (unknown tags like `!foo`) are refused too: the file means something we would guess at.
    const problem = doc.errors[0] ?? doc.warnings[0];
    // The YAML parser recurses per level and reports a deep enough file as exhausted resources.
    if (problem && /call stack/i.test(problem.message)) throw tooDeep("YAML", code, label, { path: "$" });
    if (problem) {
      const pos = problem.linePos?.[0];
      throw new LangGoapError(
        code,
        `${label}not valid ${what}${pos ? ` (line ${pos.line}, column ${pos.col})` : ""}: ${(problem.message.split("\n")[0] as string).replace(/ at line \d+, column \d+:?$/, "")} [${problem.code}]`,
        { path: "$", reason: "invalid_yaml", yamlCode: problem.code, ...(pos ? { line: pos.line, column: pos.col } : {}) },
        { cause: problem },
      );
    }
    const unsafe = yamlUnsafeInteger(doc);
    if (unsafe) throw inputProblem(unsafe.problem, positionAt(text, unsafe.offset), code, `${label}YAML`);
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof LangGoapError) throw error;
    if (error instanceof RangeError) {
      // The YAML parser recurses per level: a deep enough file exhausts the stack before we can count.
      throw tooDeep("YAML", code, label, { path: "$" });
    }
    throw new LangGoapError(code, `${label}not valid ${what}: ${(error as Error).message.split("\n")[0]}`, { path: "$" }, { cause: error });
  }
  return data;
}

/**
 * Parses a domain file, `--goal` or `--state`: `.json` as strict JSON (no
 * comments, trailing commas or single quotes; the error gives line and
 * column), YAML with unknown tags refused, and either way plain JSON data
 * nested at most {@link MAX_NESTING_DEPTH} levels.
 *
 * @example
 * ```ts
 * parseDataText('{"actions": []}', { format: "json" }); // { actions: [] }
 * parseDataText('{"a": 1,}', { format: "json" });        // throws: not valid JSON (line 1, column 9)
 * ```
 */
export function parseDataText(
  text: string,
  options: {
    /** @defaultValue "auto": JSON when the text parses as JSON, otherwise YAML */
    readonly format?: DataFormat;
    /** Error code. @defaultValue "INVALID_DOMAIN" */
    readonly code?: LangGoapErrorCode;
    /** Prefix of error messages, e.g. the file name and ": ". @defaultValue "" */
    readonly label?: string;
  } = {},
): unknown {
  const code = options.code ?? "INVALID_DOMAIN";
  const label = options.label ?? "";
  const format = options.format ?? "auto";
  if (format === "json") return parseJson(text, code, label);
  if (format === "auto") {
    const first = /\S/.exec(text)?.[0];
    if (first === "{" || first === "[") {
      try {
        return parseJson(text, code, label);
      } catch (error) {
        // Text that is JSON but too deep, repeats a key or rounds an integer is refused, not re-read as YAML.
        if ((error as LangGoapError).details?.reason !== "invalid_json") throw error;
        // Not JSON: YAML flow style (`{ a: 1 }`) starts the same way.
      }
    }
  }
  const data = parseYaml(text, code, label, format === "auto" ? "JSON or YAML" : "YAML");
  checkJsonData(data, code, label);
  return data;
}
