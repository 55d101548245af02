import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/index.js";
import { cli, ROOT } from "./run-cli.js";

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("help", () => {
  it("documents every command, option, format, strategy and exit code", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(0);
    expect(stdout.startsWith(`langgoap ${VERSION}: goal-oriented action planning from the command line.\n`)).toBe(true);
    for (const command of COMMANDS) expect(stdout.split("\n")).toContain(`  ${command.name.padEnd(11)}${command.summary}`);
    for (const option of new Set(COMMANDS.flatMap((c) => c.options.map((o) => o.name)))) expect(stdout).toContain(`--${option}`);
    for (const word of ["astar", "pipeline", "mcts", "hmax", "mermaid-gantt", "module.js#name", "500ms"]) expect(stdout).toContain(word);
    for (const exit of ["0", "1", "2", "3"]) expect(stdout).toMatch(new RegExp(`^ {2}${exit} {2}`, "m"));
    expect((await cli(["help"])).stdout).toBe(stdout);
  });

  it("gives each command its own help with its options and examples", async () => {
    for (const command of COMMANDS) {
      const { code, stdout } = await cli([command.name, "--help"]);
      expect(code).toBe(0);
      expect(stdout.startsWith(`${command.summary}.\n\nUsage:\n  ${command.usage}\n`)).toBe(true);
      for (const option of command.options) expect(stdout).toContain(`--${option.name}`);
      for (const example of command.examples) expect(stdout).toContain(example);
      expect((await cli(["help", command.name])).stdout).toBe(stdout);
    }
    expect((await cli(["plan", "-h"])).stdout).toContain("--budget <n|time>");
  });

  it("prints the version", async () => {
    expect(await cli(["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  it("prints help on stderr and exits 2 without a command", async () => {
    const { code, stdout, stderr } = await cli([]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("Commands:");
  });
});
