/**
 * PNG pictures of a plan: the HTML report's SVG plan graph and Gantt chart,
 * rasterised with resvg (`@resvg/resvg-js`, an optional peer dependency
 * loaded on first use). The SVGs are styled by the report's stylesheet, so
 * its chart rules are inlined here with the light scheme's colours.
 */
import { describeValue, LangGoapError } from "../core/errors.js";
import { nodeBuiltin } from "../core/node-builtin.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan, ScheduleEntry } from "../planner/index.js";
import { REPORT_CSS } from "./html/styles.js";
import { renderGanttSvg } from "./html/svg-gantt.js";
import { renderPlanGraphSvg, type StepOutcome } from "./html/svg-plan-graph.js";
import { plannedChart } from "./html/timeline.js";
import { viewPlan } from "./plan-view.js";

/** Options of the PNG renderers. */
export interface PngOptions {
  /** Pixels per SVG unit (2 for sharp text on high-density screens). @defaultValue 2 */
  readonly scale?: number;
  /** Background colour; `"transparent"` for none. @defaultValue "#ffffff" */
  readonly background?: string;
  /** A schedule to lay the steps out in time (otherwise the plan's own, if it has one). */
  readonly schedule?: readonly ScheduleEntry[];
}

interface ResvgModule {
  Resvg: new (
    svg: string,
    options: { fitTo: { mode: "zoom"; value: number }; background?: string; font?: { loadSystemFonts: boolean } },
  ) => { render(): { asPng(): Uint8Array } };
}

let resvg: ResvgModule | undefined;

function loadResvg(): ResvgModule {
  if (resvg) return resvg;
  // Not imported: the root import must bundle for the browser, where this gives NODE_ONLY.
  const { createRequire } = nodeBuiltin("node:module", "PNG output");
  try {
    resvg = createRequire(import.meta.url)("@resvg/resvg-js") as ResvgModule;
  } catch (error) {
    throw new LangGoapError(
      "INVALID_OPTION",
      "PNG output needs the @resvg/resvg-js package: npm install @resvg/resvg-js",
      {},
      { cause: error },
    );
  }
  return resvg;
}

/** The report's chart rules with the light scheme's colours in place of its CSS variables (resvg has no `var()`). */
function standaloneChartCss(): string {
  const root = /:root\s*\{([^}]*)\}/.exec(REPORT_CSS)?.[1] ?? "";
  const vars = new Map<string, string>();
  for (const [, name, value] of root.matchAll(/--([\w-]+):\s*([^;]+);/g)) vars.set(name as string, (value as string).trim());
  return REPORT_CSS.split("\n")
    .filter((line) => /^(svg text|\.plan-graph|\.gantt)/.test(line))
    .map((line) => line.replace(/var\(--([\w-]+)\)/g, (_, name: string) => vars.get(name) ?? "#000000"))
    .join("\n");
}

let chartCss: string | undefined;

/**
 * {@link renderPlanPng}'s options: {@link PngOptions} and each step's
 * outcome, drawn as the HTML report draws it.
 *
 * @example
 * ```ts
 * await renderPlanPng(found, { scale: 1, outcomes: new Map([[0, "succeeded"]]) });
 * ```
 */
export interface PlanPngOptions extends PngOptions {
  readonly outcomes?: ReadonlyMap<number, StepOutcome>;
}

/** The options {@link svgToPng} takes, of a plan picture's. */
function pictureOptions(options: PngOptions): Pick<PngOptions, "scale" | "background"> {
  return {
    ...(options.scale !== undefined ? { scale: options.scale } : {}),
    ...(options.background !== undefined ? { background: options.background } : {}),
  };
}

const SVG_TO_PNG_OPTIONS_KEYS = { scale: true, background: true } as const satisfies OptionKeys<Pick<PngOptions, "scale" | "background">>;

/**
 * Rasterises one of langgoap's SVGs (or any SVG) to PNG bytes, inlining the
 * chart stylesheet.
 *
 * @example
 * ```ts
 * writeFileSync("plan.png", await svgToPng(svg));
 * ```
 */
export async function svgToPng(svg: string, options: Pick<PngOptions, "scale" | "background"> = {}): Promise<Uint8Array> {
  checkOptionKeys(options, SVG_TO_PNG_OPTIONS_KEYS, "svgToPng()");
  if (typeof svg !== "string" || !svg.trimStart().startsWith("<svg")) {
    throw new LangGoapError("INVALID_OPTION", `svgToPng: expected an SVG document, got ${describeValue(svg)}`);
  }
  const scale = options.scale ?? 2;
  if (typeof scale !== "number" || !Number.isFinite(scale) || scale <= 0 || scale > 8) {
    throw new LangGoapError("INVALID_OPTION", `svgToPng: scale must be a number in (0, 8], got ${describeValue(scale)}`);
  }
  const background = options.background ?? "#ffffff";
  if (typeof background !== "string" || !/^(transparent|#[0-9a-fA-F]{3,8}|[a-z]{3,20})$/.test(background)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `svgToPng: background must be a colour such as "#ffffff" or "transparent", got ${describeValue(background)}`,
    );
  }
  chartCss ??= standaloneChartCss();
  // The stylesheet goes right after the opening tag, so it applies to the whole picture.
  const styled = svg.replace(/^(\s*<svg\b[^>]*>)/, `$1<style>${chartCss}</style>`);
  const { Resvg } = loadResvg();
  const renderer = new Resvg(styled, {
    fitTo: { mode: "zoom", value: scale },
    ...(background === "transparent" ? {} : { background }),
    font: { loadSystemFonts: true },
  });
  return renderer.render().asPng();
}

/**
 * The plan graph (start → steps by dependency → goal) as PNG bytes, as the
 * HTML report draws it.
 *
 * @example
 * ```ts
 * writeFileSync("dinner.png", await renderPlanPng(plan(start, { is_hungry: false }, actions)!));
 * ```
 */
export async function renderPlanPng(plan: Plan, options: PlanPngOptions = {}): Promise<Uint8Array> {
  checkOptionKeys(options, PLAN_PNG_OPTIONS_KEYS, "renderPlanPng()");
  const view = viewPlan(plan, options.schedule ? { schedule: options.schedule } : {});
  return svgToPng(renderPlanGraphSvg(view, options.outcomes ?? new Map()), pictureOptions(options));
}

const PNG_OPTIONS_KEYS = { scale: true, background: true, schedule: true } as const satisfies OptionKeys<PngOptions>;
const PLAN_PNG_OPTIONS_KEYS = { ...PNG_OPTIONS_KEYS, outcomes: true } as const satisfies OptionKeys<PlanPngOptions>;

/**
 * The plan's Gantt chart as PNG bytes: scheduled start times when the plan
 * has a schedule (or `options.schedule`), else one step a unit.
 *
 * @example
 * ```ts
 * writeFileSync("schedule.png", await renderGanttPng(scheduledPlan));
 * ```
 */
export async function renderGanttPng(plan: Plan, options: PngOptions = {}): Promise<Uint8Array> {
  checkOptionKeys(options, PNG_OPTIONS_KEYS, "renderGanttPng()");
  const view = viewPlan(plan, options.schedule ? { schedule: options.schedule } : {});
  const chart = plannedChart(view, new Map());
  if (!chart) throw new LangGoapError("INVALID_OPTION", "renderGanttPng: an empty plan has no Gantt chart");
  return svgToPng(renderGanttSvg(chart), pictureOptions(options));
}
