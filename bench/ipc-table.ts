/**
 * The README's IPC table from the ipc suite's JSON lines: one row per domain
 * and a total line (instances solved by us and by Fast Downward's A* with
 * LM-cut, equal costs, and ours/FD ratios over the instances both solved:
 * expansions, end-to-end time, search time — median of the per-instance
 * ratios, and the ratio of the sums), the run's load, then the instances FD
 * solved and we did not, with our status.
 *
 *   npx tsx bench/ipc-table.ts results.jsonl                 # prints the Markdown
 *   npx tsx bench/ipc-table.ts results.jsonl --write README.md docs/benchmarks.md
 *
 * `--write` replaces what stands between `<!-- ipc-table:start -->` and
 * `<!-- ipc-table:end -->` in each named file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { type IpcFd, type IpcFigures, type IpcOurs, type IpcRecord, type Ratio, summarizeIpc } from "./ipc-summary.js";

const START = "<!-- ipc-table:start -->";
const END = "<!-- ipc-table:end -->";

function readRecords(text: string) {
  const records: IpcRecord[] = [];
  let total: { loadavg?: { before: number[]; after: number[] }; budgetMs?: number; jobs?: number; limit?: string } | undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    const record = JSON.parse(line) as Record<string, unknown>;
    if (record.suite !== "ipc") continue;
    if (record.total !== undefined) total = record as typeof total;
    if (typeof record.instance !== "string" || record.missing !== undefined) continue;
    const { fd, instance, suite: _suite, ...ours } = record as { fd?: IpcFd; instance: string; suite: string } & Record<string, unknown>;
    records.push({
      id: instance,
      domain: instance.split("/")[0] as string,
      ours: typeof ours.status === "string" ? (ours as unknown as IpcOurs) : undefined,
      fd,
    });
  }
  return { records, total };
}

const times = (value: number | null) => (value === null ? "–" : `${value}×`);
const both = (r: Ratio) => (r.median === null ? "–" : `${times(r.median)} (${times(r.sum)})`);

function row(name: string, f: IpcFigures): string {
  return `| ${name} | ${f.solved}/${f.instances} | ${f.fdSolved}/${f.instances} | ${f.equalCosts}/${f.bothSolved} | ${both(f.expansions)} | ${both(f.e2e)} | ${f.fasterE2e}/${f.bothSolved} | ${both(f.search)} |`;
}

function ipcTable(text: string): string {
  const { records, total } = readRecords(text);
  const summary = summarizeIpc(records);
  const load = total?.loadavg
    ? `load average ${total.loadavg.before.map((x) => x.toFixed(1)).join("/")} at the start, ${total.loadavg.after.map((x) => x.toFixed(1)).join("/")} at the end`
    : "load not recorded";
  const lines = [
    `${summary.total.instances} instances of ${summary.total.domains} domains, ${(total?.budgetMs ?? 30_000) / 1000} s${total?.limit === "cpu" ? " of CPU time" : ""} and 3 GB each per planner, ${total?.jobs ?? 1} at a time; ${load}. Ratios are ours / Fast Downward's over the instances both solved: the median of the per-instance ratios, and in brackets the ratio of the sums. End to end: a fresh process from PDDL text to the plan (ours: Node.js, read, ground, compile, search; FD: its driver, translator included). Search: the search loop alone, FD's "Search time" and our \`searchMs\` (the task's and the heuristic's construction left out on both sides).`,
    "",
    "| domain | solved (ours) | solved (FD) | equal costs | expansions | end to end | faster end to end | search |",
    "|---|---|---|---|---|---|---|---|",
    ...summary.domains.map((d) => row(d.domain, d)),
    row("**total**", summary.total),
    "",
  ];
  const fdOnly = summary.total.fdOnly;
  lines.push(
    fdOnly.length === 0
      ? "Every instance Fast Downward solved, we solved."
      : `Solved by Fast Downward, not by us: ${fdOnly.map((m) => `${m.id} (${m.status})`).join(", ")}.`,
  );
  if (summary.total.oursOnly.length > 0) lines.push(`Solved by us, not by Fast Downward: ${summary.total.oursOnly.join(", ")}.`);
  return `${alignTables(lines).join("\n")}\n`;
}

/** Pads every cell of each Markdown table to its column's width, as the repository's formatter (Biome) writes them. */
function alignTables(lines: readonly string[]): string[] {
  const out = [...lines];
  for (let start = 0; start < out.length; start++) {
    if (!out[start]?.startsWith("|")) continue;
    let end = start;
    while (out[end + 1]?.startsWith("|")) end++;
    const rows = out.slice(start, end + 1).map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
    const isRule = (cells: readonly string[]) => cells.every((cell) => /^-+$/.test(cell));
    const widths =
      rows[0]?.map((_, column) => Math.max(3, ...rows.filter((r) => !isRule(r)).map((r) => [...(r[column] ?? "")].length))) ?? [];
    rows.forEach((cells, i) => {
      const padded = widths.map((width, column) => {
        const cell = cells[column] ?? "";
        return isRule(cells) ? "-".repeat(width) : cell + " ".repeat(width - [...cell].length);
      });
      out[start + i] = `| ${padded.join(" | ")} |`;
    });
    start = end;
  }
  return out;
}

const [file, flag, ...targets] = process.argv.slice(2);
const table = ipcTable(readFileSync(file ?? 0, "utf8"));
if (flag === "--write") {
  for (const target of targets) {
    const text = readFileSync(target, "utf8");
    const from = text.indexOf(START);
    const to = text.indexOf(END);
    if (from < 0 || to < from) throw new Error(`${target}: no ${START} … ${END} region to fill`);
    writeFileSync(target, `${text.slice(0, from + START.length)}\n${table}${text.slice(to)}`);
    process.stderr.write(`ipc table written into ${target}\n`);
  }
} else {
  process.stdout.write(table);
}
