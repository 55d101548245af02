import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/index.js";
import { cli, ROOT } from "./run-cli.js";

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("help", () => {
  it("documents every command, option, format, strategy and exit code", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(0);
    expect(stdout.startsWith(`langgoap ${VERSION}: goal-oriented action planning from the command line.\n`)).toBe(true);
    const column = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
    for (const command of COMMANDS) expect(stdout.split("\n")).toContain(`  ${command.name.padEnd(column)}${command.summary}`);
    for (const option of new Set(COMMANDS.flatMap((c) => c.options.map((o) => o.name)))) expect(stdout).toContain(`--${option}`);
    for (const word of ["astar", "pipeline", "mcts", "hmax", "mermaid-gantt", "module.js#name", "500ms"]) expect(stdout).toContain(word);
    for (const exit of ["0", "1", "2", "3", "4", "5", "130"]) expect(stdout).toMatch(new RegExp(`^ {2}${exit} {2}`, "m"));
    expect((await cli(["help"])).stdout).toBe(stdout);
  });

  it("lists every extension -o infers a format from, .png included, and only the command's own", async () => {
    const { stdout } = await cli(["--help"]);
    expect(stdout.replace(/\s+/g, " ")).toContain(
      "Default: inferred from the --output extension (.html .htm .mmd .mermaid .dot .gv .json .txt .png), else ascii.",
    );
    const actions = await cli(["actions", "--help"]);
    expect(actions.stdout.replace(/\s+/g, " ")).toContain("Default: inferred from the --output extension (.json .txt), else ascii.");
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

describe("help from another folder", () => {
  it("names the shipped sample domains by paths that exist from the working directory", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "langgoap-help-"));
    try {
      const texts = [(await cli(["--help"], { cwd: elsewhere })).stdout];
      for (const command of COMMANDS) texts.push((await cli([command.name, "--help"], { cwd: elsewhere })).stdout);
      const paths = new Set(
        texts.flatMap((text) => [...text.matchAll(/(\S*examples\/domains\/[\w-]+\.(?:yaml|json))/g)].map((m) => m[1] as string)),
      );
      expect(paths.size).toBeGreaterThanOrEqual(2);
      for (const path of paths) expect(existsSync(resolve(elsewhere, path)), path).toBe(true);
      const village = [...paths].find((p) => p.endsWith("village.yaml")) as string;
      expect((await cli(["plan", village], { cwd: elsewhere })).code).toBe(0);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
