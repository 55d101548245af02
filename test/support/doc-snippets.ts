/**
 * The code blocks of the README and the documentation site, as programs a
 * test can type-check and run (test/docs/snippets.test.ts).
 *
 * Every ```ts block is one program, importing `langgoap` (mapped to the
 * source) like a user's file would. An HTML comment on the line before a
 * block (invisible on GitHub and on the site) changes that:
 *
 * - `<!-- snippet: continue -->`: the block goes on from the block before it
 *   on the same page (its declarations are in scope); the chain of blocks is
 *   one program, its imports merged.
 * - `<!-- snippet: no-run: <reason> -->`: type-checked, never run (it needs a
 *   server, an API key or a database). A chain with one such block is not run.
 * - `<!-- snippet: output -->` before a ```text block right after a ts block:
 *   what that block prints; the chain's whole output must equal its blocks'
 *   output blocks, joined in order.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One ```ts block where it was written. */
export interface DocBlock {
  /** The Markdown file, relative to the repository. */
  readonly file: string;
  /** The line of the block's first code line (1-based). */
  readonly line: number;
  readonly code: string;
  readonly continues: boolean;
  /** Why the block is not run, when it is marked so. */
  readonly noRun: string | undefined;
  /** What the block prints, from the `output` block after it. */
  readonly output: string | undefined;
}

/** A chain of blocks made into one program. */
export interface DocProgram {
  /** A file name for the program: the page and the first block's line. */
  readonly name: string;
  readonly blocks: readonly DocBlock[];
  readonly source: string;
  /** For each line of `source` (0-based), where it was written: `file:line`, or undefined for generated lines. */
  readonly origins: readonly (string | undefined)[];
  /** Why it is not run; undefined when it runs. */
  readonly noRun: string | undefined;
  /** The expected output, when one of its blocks declares it. */
  readonly output: string | undefined;
}

const CODE_LANGS = new Set(["ts", "typescript"]);
const MARKER = /^<!--\s*snippet:\s*(continue|no-run|output)\s*(?::\s*(.*?))?\s*-->\s*$/;

/** The Markdown files whose blocks are checked: the README and the site's pages (not the generated API reference). */
export function docFiles(root: string): string[] {
  const files = ["README.md"];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (["node_modules", "api", ".vitepress", "public"].includes(entry.name)) continue;
        walk(path);
      } else if (entry.name.endsWith(".md")) {
        files.push(path);
      }
    }
  };
  walk("docs");
  return files.sort();
}

interface Fence {
  lang: string;
  start: number; // index of the first code line
  end: number; // index of the closing fence
  markers: Map<string, string>;
}

/** The fenced blocks of one Markdown text, with the snippet markers written just above each. */
function fences(lines: readonly string[]): Fence[] {
  const found: Fence[] = [];
  let i = 0;
  while (i < lines.length) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i] as string);
    if (!open) {
      i++;
      continue;
    }
    const fence = open[2] as string;
    const markers = new Map<string, string>();
    for (let j = i - 1; j >= 0; j--) {
      const text = (lines[j] as string).trim();
      if (text === "") continue;
      const marker = MARKER.exec(text);
      if (!marker) break;
      markers.set(marker[1] as string, marker[2] ?? "");
    }
    let end = i + 1;
    while (end < lines.length && !(lines[end] as string).trim().startsWith(fence)) end++;
    found.push({ lang: (open[3] as string).toLowerCase(), start: i + 1, end, markers });
    i = end + 1;
  }
  return found;
}

/** The ```ts blocks of one Markdown file. */
export function blocksOf(root: string, file: string): DocBlock[] {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const all = fences(lines);
  const blocks: DocBlock[] = [];
  all.forEach((fence, index) => {
    if (!CODE_LANGS.has(fence.lang)) return;
    const next = all[index + 1];
    const output = next?.markers.has("output") ? lines.slice(next.start, next.end).join("\n") : undefined;
    const noRun = fence.markers.get("no-run");
    if (noRun !== undefined && noRun.trim() === "") {
      throw new Error(`${file}:${fence.start}: "snippet: no-run" needs a reason ("<!-- snippet: no-run: needs a server -->")`);
    }
    blocks.push({
      file,
      line: fence.start + 1,
      code: lines.slice(fence.start, fence.end).join("\n"),
      continues: fence.markers.has("continue"),
      noRun,
      output,
    });
  });
  return blocks;
}

interface ImportLine {
  readonly module: string;
  readonly statement: string;
  readonly named: readonly string[] | undefined;
  readonly typeOnly: boolean;
}

const IMPORT = /^import\s+(type\s+)?([\s\S]*?)\s+from\s+["']([^"']+)["'];?|^import\s+["']([^"']+)["'];?/;

/** Splits a block into its leading import statements and the rest. */
function splitImports(code: string): { imports: ImportLine[]; bodyStart: number } {
  const lines = code.split("\n");
  const imports: ImportLine[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === "" || line.trim().startsWith("//")) {
      i++;
      continue;
    }
    if (!line.startsWith("import ")) break;
    let statement = line;
    let j = i;
    while (!IMPORT.test(statement) && j + 1 < lines.length) statement += `\n${lines[++j]}`;
    const match = IMPORT.exec(statement);
    if (!match) break;
    const clause = match[2];
    const named = clause !== undefined && /^\{[\s\S]*\}$/.test(clause.trim()) ? splitNames(clause) : undefined;
    imports.push({
      module: (match[3] ?? match[4]) as string,
      statement: statement.replace(/\s*\/\/.*$/gm, ""),
      named,
      typeOnly: !!match[1],
    });
    i = j + 1;
  }
  return { imports, bodyStart: i };
}

function splitNames(clause: string): string[] {
  return clause
    .trim()
    .slice(1, -1)
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

/** One program of a chain: merged imports first, then each block's body, with a map back to the Markdown lines. */
function buildProgram(blocks: readonly DocBlock[]): Pick<DocProgram, "source" | "origins"> {
  const named = new Map<string, Set<string>>(); // module -> names (with "type " when type-only)
  const whole: string[] = [];
  const body: string[] = [];
  const bodyOrigins: (string | undefined)[] = [];
  for (const block of blocks) {
    const { imports, bodyStart } = splitImports(block.code);
    for (const item of imports) {
      if (item.named) {
        const names = named.get(item.module) ?? new Set<string>();
        for (const name of item.named) names.add(item.typeOnly && !name.startsWith("type ") ? `type ${name}` : name);
        named.set(item.module, names);
      } else if (!whole.includes(item.statement)) {
        whole.push(item.statement);
      }
    }
    const lines = block.code.split("\n");
    for (let i = bodyStart; i < lines.length; i++) {
      body.push(lines[i] as string);
      bodyOrigins.push(`${block.file}:${block.line + i}`);
    }
  }
  const header: string[] = [];
  for (const [module, names] of named) {
    // A name imported both as a type and a value is imported once, as a value.
    const values = new Set([...names].filter((name) => !name.startsWith("type ")));
    const kept = [...names].filter((name) => !name.startsWith("type ") || !values.has(name.slice(5)));
    header.push(`import { ${kept.join(", ")} } from "${module}";`);
  }
  header.push(...whole.flatMap((statement) => statement.split("\n")));
  const first = blocks[0] as DocBlock;
  const prologue = [`// From ${first.file}:${first.line} (generated by test/docs/snippets.test.ts)`];
  const epilogue = ["export {};"];
  return {
    source: [...prologue, ...header, ...body, ...epilogue].join("\n"),
    origins: [...prologue.map(() => undefined), ...header.map(() => undefined), ...bodyOrigins, undefined],
  };
}

/** The programs of the given Markdown files: one per chain of blocks. */
export function docPrograms(root: string, files: readonly string[] = docFiles(root)): DocProgram[] {
  const programs: DocProgram[] = [];
  for (const file of files) {
    const chains: DocBlock[][] = [];
    for (const block of blocksOf(root, file)) {
      const last = chains.at(-1);
      if (block.continues) {
        if (!last) throw new Error(`${file}:${block.line}: "snippet: continue" on the page's first code block`);
        last.push(block);
      } else {
        chains.push([block]);
      }
    }
    for (const blocks of chains) {
      const first = blocks[0] as DocBlock;
      const slug = relative(".", file)
        .replace(/\.md$/, "")
        .replace(/[^\w]+/g, "-");
      const outputs = blocks.map((block) => block.output).filter((output) => output !== undefined);
      programs.push({
        name: `${slug}-L${first.line}`,
        blocks,
        ...buildProgram(blocks),
        noRun: blocks.find((block) => block.noRun !== undefined)?.noRun,
        output: outputs.length > 0 ? outputs.join("\n") : undefined,
      });
    }
  }
  return programs;
}
