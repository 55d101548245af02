import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  getInteropZodObjectShape,
  type InteropZodIssue,
  interopSafeParseAsync,
  isInteropZodObject,
  isInteropZodSchema,
} from "@langchain/core/utils/types";
import { describeValue, LangGoapError } from "../core/index.js";

/** A LangChain tool as langgoap accepts it: anything built with `tool()` or a `StructuredTool` subclass. */
export type LangChainTool = StructuredToolInterface;

/**
 * @internal True for LangChain tools: `StructuredTool` instances (what `tool()`
 * returns) carry the `["langchain", "tools"]` namespace, a name and `invoke`.
 */
export function isLangChainTool(value: unknown): value is LangChainTool {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<StructuredToolInterface> & { lc_namespace?: unknown };
  return (
    Array.isArray(candidate.lc_namespace) &&
    candidate.lc_namespace[1] === "tools" &&
    typeof candidate.name === "string" &&
    typeof candidate.invoke === "function"
  );
}

/** @internal Throws the error every integration uses for values that are not LangChain tools. */
export function assertLangChainTool(value: unknown, where: string): asserts value is LangChainTool {
  if (isLangChainTool(value)) return;
  const hint =
    typeof value === "function"
      ? `; wrap plain functions with tool() from "@langchain/core/tools" first, e.g. tool(fn, { name, description, schema: z.object({...}) })`
      : `; pass a tool built with tool() from "@langchain/core/tools" (plain functions must be wrapped with tool() first)`;
  throw new LangGoapError("INVALID_ACTION", `${where}: expected a LangChain tool, got ${describeValue(value)}${hint}`, {
    value: typeof value,
  });
}

/**
 * @internal The argument names a tool's schema declares: the keys of a zod
 * object schema or of a JSON schema's `properties`. `undefined` when the
 * schema does not list them (string tools, unions, transforms).
 */
export function toolArgumentNames(tool: LangChainTool): string[] | undefined {
  const schema: unknown = tool.schema;
  if (isInteropZodObject(schema)) return Object.keys(getInteropZodObjectShape(schema));
  if (typeof schema === "object" && schema !== null && !isInteropZodSchema(schema)) {
    const json = schema as { type?: unknown; properties?: unknown };
    if (json.type === "object" && typeof json.properties === "object" && json.properties !== null) return Object.keys(json.properties);
    if (json.type === "object" && json.properties === undefined) return [];
  }
  return undefined;
}

/** The JSON-schema type names a value has (a whole number is both "integer" and "number"). */
function jsonTypesOf(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}

/**
 * Top-level problems of an input under a JSON schema: missing required
 * fields and fields of the wrong `type`. Deeper rules are left to the tool's
 * own validation.
 */
function jsonSchemaProblems(schema: unknown, input: Record<string, unknown>, sourceOf: (field: string) => string | undefined): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const { required, properties } = schema as { required?: unknown; properties?: unknown };
  const problems: string[] = [];
  if (Array.isArray(required)) {
    for (const field of required) {
      if (typeof field === "string" && input[field] === undefined)
        problems.push(`field "${field}" is required${whereFrom(field, input, sourceOf)}`);
    }
  }
  if (typeof properties === "object" && properties !== null) {
    for (const [field, spec] of Object.entries(properties as Record<string, { type?: unknown }>)) {
      const value = input[field];
      const declared = spec?.type;
      if (value === undefined || declared === undefined) continue;
      const expected = (Array.isArray(declared) ? declared : [declared]).filter((t): t is string => typeof t === "string");
      if (expected.length > 0 && !jsonTypesOf(value).some((t) => expected.includes(t))) {
        problems.push(
          `field "${field}": expected ${expected.join(" or ")}, received ${jsonTypesOf(value)[0]}${whereFrom(field, input, sourceOf)}`,
        );
      }
    }
  }
  return problems;
}

/**
 * @internal Checks a tool input against the tool's own schema before the tool
 * runs, so a bad input is reported as an action failure that names the tool
 * and the field (and the world-state key the field was read from). Zod
 * schemas are checked in full; JSON schemas for required fields and the
 * types of top-level fields (the tool checks the rest itself when invoked).
 */
export async function validateToolInput(
  tool: LangChainTool,
  input: unknown,
  sourceOf: (field: string) => string | undefined,
): Promise<void> {
  // String tools wrap a string input into `{ input }` before their own check; leave that to them.
  if (typeof input === "string") return;
  const schema: unknown = tool.schema;
  let problems: string[] = [];
  if (isInteropZodSchema(schema)) {
    const parsed = await interopSafeParseAsync(schema, input);
    if (!parsed.success) problems = parsed.error.issues.map((issue) => describeIssue(issue, input, sourceOf));
  } else if (typeof input === "object" && input !== null) {
    problems = jsonSchemaProblems(schema, input as Record<string, unknown>, sourceOf);
  }
  if (problems.length > 0) {
    throw new LangGoapError("EXECUTION_ERROR", `tool "${tool.name}" rejected its input: ${problems.join("; ")}`, {
      tool: tool.name,
      problems,
    });
  }
}

function describeIssue(issue: InteropZodIssue, input: unknown, sourceOf: (field: string) => string | undefined): string {
  const [head, ...rest] = issue.path;
  if (head === undefined) return `the input as a whole: ${issue.message}`;
  const field = [String(head), ...rest.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))].join("");
  return `field "${field}": ${issue.message}${whereFrom(String(head), input, sourceOf)}`;
}

/** Says where a top-level field came from, so the fix (set a world-state key) is obvious. */
function whereFrom(field: string, input: unknown, sourceOf: (field: string) => string | undefined): string {
  const key = sourceOf(field);
  if (key === undefined) return "";
  const missing = typeof input !== "object" || input === null || (input as Record<string, unknown>)[field] === undefined;
  return missing ? ` (world-state key "${key}" is not set)` : ` (read from world-state key "${key}")`;
}
