import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createVillageActions, villageStartState } from "../../examples/lib/village.js";
import { LangGoapError } from "../../src/core/index.js";
import { Plan, plan } from "../../src/planner/index.js";
import { renderGanttPng, renderPlanPng, svgToPng } from "../../src/viz/index.js";
import { cli } from "../cli/run-cli.js";

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  expect([...bytes.slice(0, 8)]).toEqual(signature);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(String.fromCharCode(...bytes.slice(12, 16))).toBe("IHDR");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const dir = mkdtempSync(join(tmpdir(), "langgoap-png-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("PNG pictures", () => {
  const dinner = plan(villageStartState(), { is_hungry: false }, createVillageActions()) as Plan;

  it("draws the plan graph and the Gantt chart, sized by the scale", async () => {
    const graph = pngSize(await renderPlanPng(dinner));
    const half = pngSize(await renderPlanPng(dinner, { scale: 1 }));
    expect(graph.width).toBe(half.width * 2);
    expect(graph.height).toBe(half.height * 2);
    expect(half.width).toBeGreaterThan(600); // five steps in four columns, start and goal
    const gantt = pngSize(await renderGanttPng(dinner, { scale: 1 }));
    expect(gantt.width).toBeGreaterThan(600);
    expect(gantt.height).toBeGreaterThan(5 * 20); // one row a step
    expect(pngSize(await renderPlanPng(Plan.empty({}), { scale: 1 }))).toEqual({ width: 360, height: 64 });
  });

  it("refuses what is not a picture to render", async () => {
    await expect(svgToPng("<html>")).rejects.toThrow(LangGoapError);
    await expect(svgToPng("<svg/>", { scale: 0 })).rejects.toThrow("scale must be a number in (0, 8], got 0");
    await expect(svgToPng("<svg/>", { background: "url(x)" })).rejects.toThrow(/background must be a colour/);
    await expect(renderGanttPng(Plan.empty({}))).rejects.toThrow("an empty plan has no Gantt chart");
  });

  it("is written by the CLI with --format png (or a .png output), and refused on a terminal", async () => {
    const file = join(dir, "village.png");
    const written = await cli(["visualize", "examples/domains/village.yaml", "-o", file]);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe(`wrote png to ${file}\n`);
    expect(pngSize(readFileSync(file)).width).toBeGreaterThan(600);
    const gantt = join(dir, "gantt.out");
    expect((await cli(["plan", "examples/domains/village.yaml", "--format", "gantt-png", "-o", gantt])).code).toBe(0);
    expect(pngSize(readFileSync(gantt)).height).toBeGreaterThan(100);
    const refused = await cli(["plan", "examples/domains/village.yaml", "--format", "png"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--format png writes a picture: give -o <file.png> or --open");
    expect(refused.stdout).toBe("");
  });
});
