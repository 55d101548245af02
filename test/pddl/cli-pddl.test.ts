import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../cli/run-cli.js";

const FIXTURES = "test/pddl/fixtures";

describe("langgoap plan --pddl", () => {
  it("prints the optimal plan in the IPC format", async () => {
    const result = await cli(["plan", "--pddl", `${FIXTURES}/delivery-domain.pddl`, `${FIXTURES}/delivery-p01.pddl`]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    expect([...lines.slice(0, 5)].sort()).toEqual([
      "(drive t1 c b)",
      "(drive t1 depot c)",
      "(load p1 t1 depot)",
      "(unload p1 t1 b)",
      "(unlock t1 b)",
    ]);
    expect(lines[5]).toBe("; cost = 10 (general cost)");
  });

  it("a disjunctive goal: the operator that reaches it is left out of the printed plan, which a validator takes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "langgoap-pddl-"));
    try {
      const problem = join(dir, "either-ball.pddl");
      const gripper = readFileSync(`${FIXTURES}/gripper-p01.pddl`, "utf8");
      writeFileSync(problem, gripper.replace(/\(:goal [\s\S]*\)\)\s*$/, "(:goal (or (at ball1 roomb) (at ball2 roomb))))\n"));
      const result = await cli(["plan", "--pddl", `${FIXTURES}/gripper-domain.pddl`, problem, "--stats"]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stderr.trim())).toMatchObject({ status: "found", cost: 3, steps: 3 });
      expect(result.stdout.trimEnd().split("\n")).toEqual([
        "(pick ball2 rooma left)",
        "(move rooma roomb)",
        "(drop ball2 roomb left)",
        "; cost = 3 (unit cost)",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--format json works on a PDDL task too", async () => {
    const result = await cli(["plan", "--pddl", `${FIXTURES}/gripper-domain.pddl`, `${FIXTURES}/gripper-p01.pddl`, "--format", "json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "found", plan: { totalCost: 11 } });
  });

  it("a parse error exits 2 naming the file, line and column; --pddl needs two files", async () => {
    const mismatch = await cli(["plan", "--pddl", `${FIXTURES}/delivery-domain.pddl`, `${FIXTURES}/gripper-p01.pddl`]);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain(
      `${FIXTURES}/gripper-p01.pddl:2:4: the problem is for domain "gripper-strips", but the domain is "delivery"`,
    );
    const one = await cli(["plan", "--pddl", `${FIXTURES}/delivery-domain.pddl`]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain("plan --pddl: expected <domain.pddl> <problem.pddl>, got 1 file(s)");
  });
});

describe("langgoap plan --pddl with several problems", () => {
  const BLOCKS = "bench/ipc/blocks";
  const problems = ["probBLOCKS-4-0.pddl", "probBLOCKS-4-1.pddl", "probBLOCKS-5-0.pddl"].map((p) => `${BLOCKS}/${p}`);

  it("solves them one after the other, each plan under its problem's line, as each alone would", async () => {
    const batch = await cli(["plan", "--pddl", `${BLOCKS}/domain.pddl`, ...problems, "--stats"]);
    expect(batch.code).toBe(0);
    const blocks = batch.stdout.split(/^; problem /m).slice(1);
    expect(blocks.map((b) => b.split("\n")[0])).toEqual(problems);
    for (const [i, problem] of problems.entries()) {
      const alone = await cli(["plan", "--pddl", `${BLOCKS}/domain.pddl`, problem]);
      expect(alone.code).toBe(0);
      expect(`${problem}\n${alone.stdout}`).toBe(blocks[i]);
    }
    // One stats line per problem, naming it.
    const stats = batch.stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { problem: string; status: string; cost: number });
    expect(stats.map((s) => [s.problem, s.status])).toEqual(problems.map((p) => [p, "found"]));
    expect(stats.map((s) => s.cost)).toEqual([6, 10, 12]);
  });

  it("reports a failing problem and goes on; the exit code is the first failure's", async () => {
    const FIXTURES = "test/pddl/fixtures";
    const result = await cli([
      "plan",
      "--pddl",
      `${FIXTURES}/delivery-domain.pddl`,
      `${FIXTURES}/gripper-p01.pddl`,
      `${FIXTURES}/delivery-p01.pddl`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${FIXTURES}/gripper-p01.pddl:2:4: the problem is for domain "gripper-strips"`);
    expect(result.stdout).toContain(`; problem ${FIXTURES}/delivery-p01.pddl\n`);
    expect(result.stdout.trimEnd().endsWith("; cost = 10 (general cost)")).toBe(true);
  });

  it("refuses what takes one problem: other formats, an output file, --open", async () => {
    const args = ["--pddl", `${BLOCKS}/domain.pddl`, ...problems];
    const json = await cli(["plan", ...args, "--format", "json"]);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("--format json takes one problem; several problems print IPC plans (--format ipc)");
    const output = await cli(["plan", ...args, "-o", ".tmp/plans.txt"]);
    expect(output.code).toBe(2);
    expect(output.stderr).toContain("--output takes one problem");
    const open = await cli(["plan", ...args, "--open"]);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain("--open takes one problem");
  });
});
