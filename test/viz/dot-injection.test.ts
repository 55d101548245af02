/**
 * DOT output checked by real Graphviz (compiled to WebAssembly): names,
 * keys and values from data stay inside their labels, add no node, and
 * show control characters as visible escapes.
 */
import { Graphviz } from "@hpcc-js/wasm-graphviz";
import { beforeAll, describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { planDetailed } from "../../src/planner/index.js";
import { renderDot, renderSearchTree } from "../../src/viz/index.js";
import { HOSTILE_NAMES, HOSTILE_SUGGESTION, hostilePlan, NEWLINE_KEY, unsafeChars } from "./hostile.js";

let graphviz: Graphviz;

beforeAll(async () => {
  graphviz = await Graphviz.load();
});

const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** SVG text as read: entities decoded, and Graphviz's no-break spaces (it keeps runs of spaces with them) as spaces. */
function decode(text: string): string {
  return text.replace(/&(#\d+|[a-z]+);/g, (_, e: string) =>
    e.startsWith("#") ? String.fromCodePoint(Number(e.slice(1))).replace("\u00a0", " ") : (ENTITIES[e] ?? `&${e};`),
  );
}

/** Each node Graphviz drew: its name and the lines of its label, as shown. */
function drawnNodes(dot: string): Map<string, string[]> {
  const svg = graphviz.layout(dot, "svg", "dot");
  const nodes = new Map<string, string[]>();
  for (const match of svg.matchAll(/<g id="node\d+" class="node">\n<title>(.*?)<\/title>(.*?)<\/g>/gs)) {
    const lines = [...(match[2] as string).matchAll(/<text[^>]*>(.*?)<\/text>/g)].map((m) => decode(m[1] as string));
    nodes.set(decode(match[1] as string), lines);
  }
  return nodes;
}

describe("DOT output under real Graphviz", () => {
  it("draws each hostile name as its node's first line, and the legend line by line", () => {
    const plan = hostilePlan();
    const dot = renderDot(plan, { showSchedule: false });
    expect(unsafeChars(dot)).toEqual([]);
    const nodes = drawnNodes(dot);
    expect([...nodes.keys()].sort()).toEqual([...plan.actionNames.map((_, i) => `s${i}`), "legend"].sort());
    HOSTILE_NAMES.forEach((name, i) => {
      expect(nodes.get(`s${i}`)).toEqual([name, "duration=10ms"]);
    });
    expect(nodes.get("legend")).toEqual([
      "Resources:",
      `  ${NEWLINE_KEY.replace(/\n/g, "\\n")}: 12 / 10  [VIOLATED]`,
      "  eur\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202egnp.exe: 1",
      "INFEASIBLE PLAN",
      `  Suggestion: ${HOSTILE_SUGGESTION.replace(/\n/g, "\\n")}`,
    ]);
  });

  it("keeps hostile state values inside search-tree labels and tooltips", () => {
    const note = 'say "hi"\\N\u009b31m\u202e\n}; evil [label="x"]; {';
    const actions = [new ActionSpec({ name: "speak", preconditions: { ready: true }, effects: { said: true } })];
    const result = planDetailed({ ready: true, note }, { said: true }, actions, { recordExpansions: true });
    const dot = renderSearchTree(result.expansions ?? [], { plan: result.plan, showState: true });
    expect(unsafeChars(dot)).toEqual([]);
    const nodes = drawnNodes(dot);
    expect([...nodes.keys()].sort()).toEqual(["goal", "n0"]);
    expect(nodes.get("n0")).toEqual([
      "#0 start",
      "g=0 h=1",
      'note="say \\"hi\\"\\\\N\\u009b31m\\u202e\\n}; evil [label=\\"x\\"]; {"',
      "ready=true",
    ]);
  });
});
