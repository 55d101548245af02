/**
 * A worker of test/pddl/ipc-suite.test.ts: reads one instance per line on
 * stdin (`{"instance", "domainFile", "problemFile"}`), parses and grounds it
 * (parsePddlDomain, parsePddlProblem, groundPddl: the planner's input, not
 * yet its ActionSpecs), and writes one JSON line per instance: the fluents
 * and operators found and the CPU time taken, or the error.
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { groundPddl } from "../../src/pddl/ground.js";
import { parsePddlDomain, parsePddlProblem } from "../../src/pddl/index.js";

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === "") continue;
  const { instance, domainFile, problemFile } = JSON.parse(line) as { instance: string; domainFile: string; problemFile: string };
  const started = process.cpuUsage();
  let record: Record<string, unknown>;
  try {
    const domain = parsePddlDomain(readFileSync(domainFile, "utf8"), domainFile);
    const problem = parsePddlProblem(readFileSync(problemFile, "utf8"), domain, problemFile);
    const ground = groundPddl(domain, problem);
    record = { instance, facts: ground.fluents.length, operators: ground.operators.length };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    record = { instance, error: `${code ?? "Error"}: ${message ?? String(error)}` };
  }
  const used = process.cpuUsage(started);
  process.stdout.write(`${JSON.stringify({ ...record, cpuMs: Math.round((used.user + used.system) / 1000) })}\n`);
}
