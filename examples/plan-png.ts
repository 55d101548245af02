/**
 * Plans as pictures: the kitchen domain (durative actions) planned and
 * written as PNG files by the `langgoap` command line (the plan graph and
 * the scheduled Gantt chart) and by the API, each checked by decoding the
 * PNG header (signature, IHDR width and height).
 *
 * Run: npx tsx examples/plan-png.ts
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../src/cli/index.js";
import { loadDomain } from "../src/core/index.js";
import { plan } from "../src/planner/index.js";
import { renderPlanPng } from "../src/viz/index.js";

function check(condition: boolean, message: string): void {
  if (!condition) {
    console.error(`FAILED: ${message}`);
    process.exit(1);
  }
  console.log(`ok - ${message}`);
}

/** The PNG's size from its IHDR chunk, or null when the bytes are not a PNG. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return null;
  if (String.fromCharCode(...bytes.slice(12, 16)) !== "IHDR") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const dir = mkdtempSync(join(tmpdir(), "langgoap-png-example-"));
const domain = join(import.meta.dirname, "domains", "kitchen.yaml");
const io = { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t) };

const graphFile = join(dir, "kitchen-plan.png");
check((await runCli(["visualize", domain, "--format", "png", "-o", graphFile], io)) === 0, "langgoap visualize --format png exits 0");
const graph = pngSize(readFileSync(graphFile));
console.log(`  plan graph: ${graph?.width}×${graph?.height} px`);
check(graph !== null && graph.width > 600 && graph.height > 50, "the plan graph is a PNG of a plausible size");

const ganttFile = join(dir, "kitchen-gantt.png");
check((await runCli(["plan", domain, "--format", "gantt-png", "-o", ganttFile], io)) === 0, "langgoap plan --format gantt-png exits 0");
const gantt = pngSize(readFileSync(ganttFile));
console.log(`  Gantt chart: ${gantt?.width}×${gantt?.height} px`);
check(gantt !== null && gantt.width > 600 && gantt.height > 50, "the Gantt chart is a PNG of a plausible size");

const { actions, state, goal } = loadDomain(readFileSync(domain, "utf8"));
const found = plan(state, goal ?? {}, actions);
check(found !== null, "the API plans the same domain");
const bytes = await renderPlanPng(found!, { scale: 1 });
const size = pngSize(bytes);
check(size !== null && graph !== null && size.width * 2 === graph.width, "renderPlanPng at scale 1 is half the CLI's scale-2 picture");
