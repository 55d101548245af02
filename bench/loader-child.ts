/**
 * One loader measurement in a fresh process (bench/suites/15-loader.ts
 * spawns it with --expose-gc), so heap figures belong to this load alone.
 * Prints one JSON object on stdout.
 */
import { loadDomain } from "../src/core/index.js";
import { domainText } from "./loader-domain.js";

const gc = (globalThis as { gc?: () => void }).gc;
const collect = () => {
  gc?.();
  gc?.();
};

const n = Number(process.argv[2]);
collect();
const baseline = process.memoryUsage().heapUsed;
let text: string | undefined = domainText(n);
const fileMb = Buffer.byteLength(text) / 1e6;

// The floor: JSON.parse alone, in this same process.
collect();
let t0 = performance.now();
let parsed: unknown = JSON.parse(text);
const parseMs = performance.now() - t0;
parsed = undefined;

collect();
const cpu0 = process.cpuUsage();
t0 = performance.now();
const domain = loadDomain(text, { format: "json" });
const loadMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
text = undefined;
collect();
const retainedMb = (process.memoryUsage().heapUsed - baseline) / 1e6;
process.stdout.write(
  `${JSON.stringify({
    actions: domain.actions.length,
    fileMb: Number(fileMb.toFixed(1)),
    loadMs: Math.round(loadMs),
    loadCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    jsonParseMs: Math.round(parseMs),
    loadOverParse: Number((loadMs / parseMs).toFixed(2)),
    retainedHeapMb: Math.round(retainedMb),
    heapPerFileByte: Number((retainedMb / fileMb).toFixed(1)),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    gc: gc !== undefined,
  })}\n`,
);
void parsed;
