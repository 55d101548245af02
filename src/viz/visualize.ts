import { describeValue, LangGoapError } from "../core/errors.js";
import type { Plan } from "../planner/index.js";
import { renderAscii } from "./ascii.js";
import { renderAsciiGantt } from "./ascii-gantt.js";
import { renderDot } from "./dot.js";
import { renderHtmlReport } from "./html/report.js";
import { planToJson } from "./json.js";
import { renderMermaid, renderMermaidGantt } from "./mermaid.js";
import type { RenderOptions } from "./plan-view.js";

/**
 * Output formats of {@link visualize}: `gantt` is the text Gantt chart,
 * `mermaid-gantt` its Mermaid twin, `html` the self-contained report page.
 */
export const VIZ_FORMATS = ["ascii", "gantt", "mermaid", "mermaid-gantt", "dot", "html", "json"] as const;
export type VizFormat = (typeof VIZ_FORMATS)[number];

/** Options of {@link visualize}. */
export interface VisualizeOptions extends RenderOptions {
  /** @defaultValue "ascii" */
  readonly format?: VizFormat;
  /** Width of the text Gantt chart. @defaultValue 60 */
  readonly width?: number;
  /** Title of the HTML page. @defaultValue "langgoap plan" */
  readonly title?: string;
}

/**
 * Renders a plan in any of the {@link VIZ_FORMATS}: one entry point for
 * code that takes the format from a user (the CLI does).
 *
 * @example
 * ```ts
 * console.log(visualize(found, { format: "mermaid" }));
 * ```
 * @throws LangGoapError `INVALID_OPTION` for an unknown format, or a Gantt format on an unscheduled plan.
 */
export function visualize(plan: Plan, options: VisualizeOptions = {}): string {
  const format = options.format ?? "ascii";
  switch (format) {
    case "ascii":
      return renderAscii(plan, options);
    case "gantt":
      return renderAsciiGantt(plan, {
        ...(options.width !== undefined ? { width: options.width } : {}),
        ...(options.schedule ? { schedule: options.schedule } : {}),
      });
    case "mermaid":
      return renderMermaid(plan, options);
    case "mermaid-gantt":
      return renderMermaidGantt(plan, options.schedule ? { schedule: options.schedule } : {});
    case "dot":
      return renderDot(plan, options);
    case "html":
      return renderHtmlReport({
        title: options.title ?? "langgoap plan",
        plan,
        ...(plan.startState ? { startState: plan.startState } : {}),
      });
    case "json":
      return `${JSON.stringify(planToJson(plan, options.schedule ? { schedule: options.schedule } : {}), null, 2)}\n`;
    default:
      throw new LangGoapError(
        "INVALID_OPTION",
        `visualize: format must be one of ${VIZ_FORMATS.join(", ")}, got ${describeValue(format)}`,
        {
          field: "format",
          value: format,
          allowed: VIZ_FORMATS,
        },
      );
  }
}
