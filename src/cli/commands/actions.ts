import { formatMs, formatNumber } from "../../viz/index.js";
import type { CommandContext } from "../context.js";
import { conditionsText, effectsText } from "../describe.js";
import { deliver, toJsonText } from "../output.js";
import { terminalText } from "../terminal-text.js";

function table(rows: readonly (readonly string[])[]): string {
  // A loop, not Math.max(...column): spreading a million rows as arguments overflows the stack.
  const widths = rows[0]!.map(() => 0);
  for (const r of rows) for (let c = 0; c < r.length; c++) widths[c] = Math.max(widths[c] as number, (r[c] as string).length);
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c] as number)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** `langgoap actions`: every action with cost, preconditions and effects (durations and resources when any action has them). */
export async function actionsCommand(ctx: CommandContext): Promise<number> {
  const actions = ctx.domain.actions;
  if (ctx.args.format === "json") {
    await deliver(ctx, toJsonText(actions.map((a) => a.toJSON())));
    return 0;
  }
  const timed = actions.some((a) => a.durationMs !== undefined);
  const resourced = actions.some((a) => a.resources !== undefined);
  const header = ["name", "cost", ...(timed ? ["duration"] : []), ...(resourced ? ["resources"] : []), "preconditions", "effects"];
  const rows = actions.map((a) => [
    terminalText(a.name),
    typeof a.cost === "number" ? formatNumber(a.cost) : "(computed)",
    ...(timed ? [a.durationMs !== undefined ? formatMs(a.durationMs) : "-"] : []),
    ...(resourced
      ? [
          Object.entries(a.resources ?? {})
            .map(([k, v]) => `${terminalText(k)}=${formatNumber(v)}`)
            .join(", ") || "-",
        ]
      : []),
    conditionsText(a.preconditions),
    effectsText(a),
  ]);
  await deliver(ctx, `${table([header, ...rows])}\n${actions.length} action${actions.length === 1 ? "" : "s"}\n`);
  return 0;
}
