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
