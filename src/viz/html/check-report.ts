import { displayText } from "../../core/display-text.js";
import { describeValue, LangGoapError } from "../../core/errors.js";
import { Plan } from "../../planner/index.js";
import type { RunReport } from "./report-types.js";

/**
 * Reports are built from data a run left behind: execution histories read
 * back from stores and checkpoints, tracer events, explanations. That data
 * is not trusted code, so its shape is checked before anything is drawn: a
 * record whose `attempts` is a string is refused here, by path, instead of
 * reaching the page.
 */

type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === "string";
const isBoolean: Check = (v) => typeof v === "boolean";
const isFiniteNumber: Check = (v) => typeof v === "number" && Number.isFinite(v);
const isCount: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const isDuration: Check = (v) => isFiniteNumber(v) && (v as number) >= 0;
const isRecord: Check = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings: Check = (v) => Array.isArray(v) && v.every(isString);
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);
const nullable =
  (check: Check): Check =>
  (v) =>
    v === undefined || v === null || check(v);

/** What each check expects, for messages. */
const EXPECTED = new Map<Check, string>([
  [isString, "a string"],
  [isBoolean, "a boolean"],
  [isFiniteNumber, "a finite number"],
  [isCount, "a non-negative integer"],
  [isDuration, "a finite number >= 0"],
  [isRecord, "an object"],
  [isStrings, "an array of strings"],
]);

function refuse(path: string, expected: string, value: unknown): never {
  // The offending value is data too: bounded and made visible before it enters a message.
  const shown = displayText(describeValue(value), { maxChars: 120 });
  const where = path ? `report.${path}` : "report";
  throw new LangGoapError("INVALID_OPTION", `renderHtmlReport: ${where} must be ${expected}, got ${shown}`, { field: where });
}

function field(record: Record<string, unknown>, key: string, check: Check, path: string, wrap?: "optional" | "nullable"): void {
  const value = record[key];
  const accepts = wrap === "optional" ? optional(check) : wrap === "nullable" ? nullable(check) : check;
  if (!accepts(value)) refuse(path ? `${path}.${key}` : key, EXPECTED.get(check) ?? "valid", value);
}

function list(report: Record<string, unknown>, key: string, each: (item: Record<string, unknown>, path: string) => void): void {
  const value = report[key];
  if (value === undefined) return;
  if (!Array.isArray(value)) refuse(key, "an array", value);
  value.forEach((item: unknown, i) => {
    const path = `${key}[${i}]`;
    if (!isRecord(item)) refuse(path, "an object", item);
    each(item as Record<string, unknown>, path);
  });
}

function checkHistory(r: Record<string, unknown>, path: string): void {
  field(r, "actionName", isString, path);
  field(r, "success", isBoolean, path);
  field(r, "error", isString, path, "nullable");
  field(r, "failure", isString, path, "nullable");
  field(r, "attempts", isCount, path, "optional");
  field(r, "durationMs", isDuration, path, "optional");
}

function checkRound(r: Record<string, unknown>, path: string): void {
  if (r.plan !== null && !(r.plan instanceof Plan)) refuse(`${path}.plan`, "a Plan or null", r.plan);
  field(r, "reason", isString, path, "nullable");
  field(r, "planningMs", isDuration, path);
  field(r, "failure", isString, path, "optional");
}

function checkEvent(r: Record<string, unknown>, path: string): void {
  field(r, "atMs", isFiniteNumber, path);
  field(r, "hook", isString, path);
  field(r, "summary", isString, path);
}

function checkScheduleEntry(r: Record<string, unknown>, path: string): void {
  field(r, "index", isCount, path);
  field(r, "startMs", isFiniteNumber, path);
  field(r, "endMs", isFiniteNumber, path);
  field(r, "durationMs", isFiniteNumber, path, "optional");
}

/**
 * @internal Checks every part of a {@link RunReport} the page draws, and
 * throws a `LangGoapError` (`INVALID_OPTION`) naming the first bad field
 * (`report.executionHistory[3].attempts`) and what it should be.
 */
export function checkReport(report: unknown): asserts report is RunReport {
  if (!isRecord(report)) refuse("", "an object", report);
  const r = report as Record<string, unknown>;
  if (r.plan !== null && !(r.plan instanceof Plan)) refuse("plan", "a Plan or null", r.plan);
  field(r, "title", isString, "", "optional");
  field(r, "status", isString, "", "optional");
  field(r, "replanCount", isCount, "", "optional");
  field(r, "droppedEvents", isCount, "", "optional");
  for (const key of ["startState", "finalState"]) field(r, key, isRecord, "", "optional");
  if (r.goal !== undefined && r.goal !== null && !isRecord(r.goal)) refuse("goal", "a goal or conditions object", r.goal);
  list(r, "executionHistory", checkHistory);
  list(r, "rounds", checkRound);
  list(r, "events", checkEvent);
  list(r, "schedule", checkScheduleEntry);
  if (r.explanation !== undefined && r.explanation !== null) {
    if (!isRecord(r.explanation)) refuse("explanation", "an object", r.explanation);
    const explanation = r.explanation as Record<string, unknown>;
    field(explanation, "suggestion", isString, "explanation");
    for (const key of ["unreachableConditions", "missingPreconditions", "unusableActions"]) {
      field(explanation, key, isStrings, "explanation");
    }
  }
  if (r.stats !== undefined) {
    if (!isRecord(r.stats)) refuse("stats", "an object", r.stats);
    for (const key of ["nodesExpanded", "planningTimeMs"]) field(r.stats as Record<string, unknown>, key, isFiniteNumber, "stats");
  }
}
