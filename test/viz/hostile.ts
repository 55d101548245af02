/**
 * Plans and values built from hostile data: names and keys that carry
 * diagram syntax, markup, terminal sequences and bidi overrides. Action
 * names hold no whitespace or control characters (ActionSpec refuses
 * those); resource keys, explanations and values come from data and may
 * hold anything.
 */
import { ActionSpec } from "../../src/core/index.js";
import { type CSPMetadata, Plan } from "../../src/planner/index.js";

/** Action names that are syntax somewhere: Mermaid Gantt statements, comments, directives, Markdown, HTML, DOT escapes. */
export const HOSTILE_NAMES = [
  "`**bold**`",
  "click",
  "CLICK",
  "%%hidden",
  "%%{init:{'securityLevel':'loose'}}%%",
  'a"]-->injected["x',
  "x%y",
  "A:B;C#D",
  "#quot;",
  "section",
  "title",
  "dateFormat",
  "axisFormat",
  "todayMarker",
  "excludes",
  "weekday",
  "call",
  "href",
  "accTitle:",
  "2024-01-01",
  "end",
  "<img/src=x/onerror=window.__pwned=1>",
  "\\N\\G\\",
  "}%%",
] as const;

/** A resource key that ends a line and injects a Mermaid node and an edge. */
export const NEWLINE_KEY = 'usd\n    injected["pwned"]\n    s0_x --> injected';
/** Terminal sequences (clear screen, window title, CSI as C1), DEL and a right-to-left override. */
export const TERMINAL_KEY = "eur\u001b[2J\u001b]0;pwned\u0007\u009b31m\u007f\u202egnp.exe";
/** A refinement explanation that tries to leave its label. */
export const HOSTILE_SUGGESTION = 'raise it"}}:::x\n    click s0_x call alert()\n%%{init: {"securityLevel":"loose"}}%%';

/** One independent action per name, in that order, scheduled back to back, with hostile resource keys and an infeasible verdict. */
export function hostilePlan(names: readonly string[] = HOSTILE_NAMES): Plan {
  const actions = names.map((name, i) => new ActionSpec({ name, effects: { [`done_${i}`]: true }, durationMs: 10 }));
  let state: Record<string, boolean> = {};
  const expectedStates = actions.map((_, i) => {
    state = { ...state, [`done_${i}`]: true };
    return state;
  });
  const csp: CSPMetadata = {
    status: "infeasible",
    solver: "none",
    solveTimeMs: 0,
    makespanMs: actions.length * 10,
    resourceUsage: [
      { key: NEWLINE_KEY, total: 12, max: 10, satisfied: false, level: "hard" },
      { key: TERMINAL_KEY, total: 1, satisfied: true, level: "info" },
    ],
    schedule: actions.map((action, index) => ({
      index,
      actionName: action.name,
      startMs: index * 10,
      durationMs: 10,
      endMs: index * 10 + 10,
    })),
    explanation: { suggestion: HOSTILE_SUGGESTION },
  };
  return new Plan({ actions, expectedStates, startState: {}, totalCost: actions.length, metadata: { csp } });
}

/** Characters no output may carry raw (newline and tab aside), as `U+XXXX`: controls, bidi and invisible format characters. */
export function unsafeChars(text: string): string[] {
  return [...text]
    .filter((c) => c !== "\n" && c !== "\t" && /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(c))
    .map((c) => `U+${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`);
}
