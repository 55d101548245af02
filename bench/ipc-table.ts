/**
 * Turns the ipc suite's JSON lines (a file, or stdin) into the README's
 * Markdown table: per domain, instances solved by us and by Fast Downward
 * within the time limit, and the median ratios (ours / FD's) of expansions,
 * search time and grounding time over the instances both solved; every plan
 * of ours is counted only when it was validated.
 * Usage: npx tsx bench/ipc-table.ts results.jsonl
 */
import { readFileSync } from "node:fs";
import { median } from "./emit.js";

interface InstanceLine {
  instance: string;
  status: string;
  validated?: boolean | null;
  cost?: number | null;
  expansions?: number;
  searchMs?: number;
  groundingMs?: number;
  fd?: { solved: boolean; cost?: number; expansions?: number; searchMs?: number; translateMs?: number };
}

const text = readFileSync(process.argv[2] ?? 0, "utf8");
const byDomain = new Map<string, InstanceLine[]>();
for (const line of text.split("\n")) {
  if (!line.startsWith("{")) continue;
  const record = JSON.parse(line) as Partial<InstanceLine> & { suite?: string };
  if (record.suite !== "ipc" || typeof record.instance !== "string") continue;
  const domain = record.instance.split("/")[0] as string;
  const list = byDomain.get(domain) ?? [];
  list.push(record as InstanceLine);
  byDomain.set(domain, list);
}

const format = (values: number[]) => (values.length ? `${Number(median(values).toPrecision(2))}×` : "–");
const rows = [
  "| domain | solved (ours) | solved (FD LM-cut) | costs equal | expansions ours/FD | search time ours/FD | faster than FD | grounding ours/FD translator |",
  "|---|---|---|---|---|---|---|---|",
];
for (const [domain, lines] of byDomain) {
  const ours = lines.filter((l) => l.status === "found" && l.validated === true);
  const both = ours.filter((l) => l.fd?.solved);
  const ratio = (pick: (l: InstanceLine) => [number | undefined, number | undefined]) =>
    both.flatMap((l) => {
      const [a, b] = pick(l);
      return a === undefined || b === undefined ? [] : [a / Math.max(b, 1)];
    });
  const faster = both.filter((l) => (l.searchMs ?? Infinity) < Math.max(l.fd?.searchMs ?? 0, 1)).length;
  const equalCosts = both.filter((l) => l.cost === l.fd?.cost).length;
  rows.push(
    `| ${domain} | ${ours.length}/${lines.length} | ${lines.filter((l) => l.fd?.solved).length}/${lines.length} | ${equalCosts}/${both.length} | ${format(ratio((l) => [l.expansions, l.fd?.expansions]))} | ${format(ratio((l) => [l.searchMs, l.fd?.searchMs]))} | ${faster}/${both.length} | ${format(ratio((l) => [l.groundingMs, l.fd?.translateMs]))} |`,
  );
}
process.stdout.write(`${rows.join("\n")}\n`);
