/**
 * Mermaid output checked by the real Mermaid parser (the `mermaid`
 * package in headless Chromium): names and keys from data cannot break a
 * diagram, add nodes, edges or statements, or run script; what Mermaid
 * draws is the name itself.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMermaid, renderMermaidGantt } from "../../src/viz/index.js";
import { requireBrowser } from "../support/requirements.js";
import { launchChromium } from "./chromium.js";
import { villagePlan } from "./fixtures.js";
import { HOSTILE_NAMES, HOSTILE_SUGGESTION, hostilePlan, NEWLINE_KEY, TERMINAL_KEY, unsafeChars } from "./hostile.js";
import { MermaidParser } from "./mermaid-parser.js";

/** How Mermaid shows text from data: backslashes and line breaks as visible escapes that Mermaid cannot read as `\n`. */
function shown(text: string): string {
  return text.replace(/\\/g, "\\u005c").replace(/\n/g, "\\u000a");
}

const chromiumHere = requireBrowser("Mermaid injection (real Mermaid parser in Chromium)");

let browser: Browser;
let mermaid: MermaidParser;

beforeAll(async () => {
  if (!chromiumHere.available) return;
  browser = await launchChromium(chromiumHere);
  mermaid = await MermaidParser.open(browser);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe.runIf(chromiumHere.available)("Mermaid output under the real Mermaid parser", () => {
  it("parses the village flowchart into its five steps and four links (the harness sees real diagrams)", async () => {
    const parsed = await mermaid.parse(renderMermaid(villagePlan()));
    expect(parsed.error).toBeUndefined();
    expect(parsed.nodes?.map((n) => n.id)).toEqual(["s0_go_to_tree", "s1_chop_wood", "s2_go_to_campfire", "s3_cook_food", "s4_eat_food"]);
    expect(parsed.edges).toHaveLength(4);
  });

  it("keeps hostile action names, resource keys and explanations inside their labels", async () => {
    const plan = hostilePlan();
    const parsed = await mermaid.parse(renderMermaid(plan, { showSchedule: false }));
    expect(parsed.error).toBeUndefined();
    const steps = plan.actionNames.map((name, index) => `s${index}_${name.replace(/[^A-Za-z0-9_]/g, "_")}`);
    // Exactly the steps and the infeasibility note: no injected node.
    expect(parsed.nodes?.map((n) => n.id).sort()).toEqual([...steps, "infeasible"].sort());
    // Unscheduled and unlinked: the dotted chain in plan order, and the note's link. No injected edge.
    const chain = steps.slice(1).map((id, k) => [steps[k], id]);
    expect(parsed.edges).toEqual([...chain, ["infeasible", steps[0]]]);
    // Mermaid draws each name as it is: no Markdown, no markup, no directive.
    HOSTILE_NAMES.forEach((name, i) => {
      expect(parsed.drawn?.[i], name).toBe(`${shown(name)}⏱ 10ms`);
    });
    // Newlines from data are drawn as visible escapes, inside the note.
    expect(parsed.drawn?.at(-1)).toBe(`INFEASIBLE PLAN${shown(NEWLINE_KEY)}: 12 / 10  [VIOLATED]Suggestion: ${shown(HOSTILE_SUGGESTION)}`);
    expect(parsed.pwned).toBe(false);
  });

  it("keeps a scheduled plan's subgraphs and its resource comments intact", async () => {
    const text = renderMermaid(hostilePlan());
    expect(unsafeChars(text)).toEqual([]);
    const parsed = await mermaid.parse(text);
    expect(parsed.error).toBeUndefined();
    expect(parsed.nodes).toHaveLength(HOSTILE_NAMES.length + 1);
    // Back to back, every step starts alone: no subgraph, and the comments added no statement.
    expect(parsed.subgraphs).toEqual([]);
    expect(TERMINAL_KEY).toContain("\u001b[2J");
    expect(text).toContain("    %%   eur\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202egnp.exe: 1\n");
  });

  it("draws every Gantt task, named click, section, %%hidden or anything else, under its own name", async () => {
    const plan = hostilePlan();
    const parsed = await mermaid.parse(renderMermaidGantt(plan));
    expect(parsed.error).toBeUndefined();
    expect(parsed.tasks?.map((t) => t.id)).toEqual(plan.actionNames.map((_, i) => `t${i}`));
    expect(parsed.drawn).toEqual(HOSTILE_NAMES.map(shown));
    expect(parsed.pwned).toBe(false);
  });

  it("parses each hostile name alone in a Gantt chart", async () => {
    for (const name of HOSTILE_NAMES) {
      const parsed = await mermaid.parse(renderMermaidGantt(hostilePlan([name])));
      expect(parsed.error, name).toBeUndefined();
      expect(parsed.drawn, name).toEqual([shown(name)]);
    }
  });
});
