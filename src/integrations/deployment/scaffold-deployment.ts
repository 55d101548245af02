import { describeValue, LangGoapError } from "../../core/index.js";
import { nodeBuiltin } from "../../core/node-builtin.js";
import { actionsTemplate } from "./templates/actions-template.js";
import { graphTemplate, serverTemplate } from "./templates/code-templates.js";
import {
  gitignoreTemplate,
  langgraphJsonTemplate,
  packageJsonTemplate,
  type ScaffoldVersions,
  tsconfigTemplate,
} from "./templates/project-templates.js";
import { readmeTemplate } from "./templates/readme-template.js";

/** Options of {@link scaffoldDeployment}. */
export interface ScaffoldDeploymentOptions {
  /** Graph id in `langgraph.json` (letters, digits, `_`, `-`). @defaultValue the folder's name, with `_` for other characters */
  readonly graphId?: string;
  /** The `langgoap` dependency of the project: a range, or `file:` a local tarball. @defaultValue `^` this package's version */
  readonly langgoapVersion?: string;
  /** Overwrite files that already exist. @defaultValue false */
  readonly force?: boolean;
}

/** What {@link scaffoldDeployment} wrote. */
export interface ScaffoldedDeployment {
  /** The project folder (absolute). */
  readonly dir: string;
  readonly graphId: string;
  /** Files written, relative to `dir`, in writing order. */
  readonly files: readonly string[];
}

const GRAPH_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
// Fetched on use, not imported: the root import must bundle for the browser, where this gives NODE_ONLY.
const nodeFs = () => nodeBuiltin("node:fs", "scaffoldDeployment");
const nodePath = () => nodeBuiltin("node:path", "scaffoldDeployment");

const PEERS = ["@langchain/core", "@langchain/langgraph", "@langchain/langgraph-checkpoint-postgres"] as const;

interface OwnPackage {
  readonly version: string;
  readonly peerDependencies: Readonly<Record<string, string>>;
}

function ownPackage(): OwnPackage {
  // Walk up to langgoap's own package.json rather than a fixed `../../..`: this module also runs bundled into the
  // command line (dist/cli/bundle/chunks/). Read from the file system, not `new URL(..., import.meta.url)`, which
  // browser bundlers (Vite) would copy into the app as an asset.
  const fs = nodeFs();
  const path = nodePath();
  const here = nodeBuiltin("node:url", "scaffoldDeployment").fileURLToPath(import.meta.url);
  for (let dir = path.dirname(here); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const json = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<OwnPackage> & { name?: string };
      if (json.name === "langgoap") return json as OwnPackage;
    }
    if (path.dirname(dir) === dir) {
      throw new LangGoapError("EXECUTION_ERROR", `scaffoldDeployment: cannot find langgoap's package.json above ${here}`, {
        file: here,
      });
    }
  }
}

function versions(langgoap: string | undefined): ScaffoldVersions {
  const own = ownPackage();
  const peers = Object.fromEntries(PEERS.map((name) => [name, own.peerDependencies[name] as string]));
  return { langgoap: langgoap ?? `^${own.version}`, peers };
}

function graphIdFor(dir: string, given: string | undefined): string {
  if (given !== undefined) {
    if (typeof given !== "string" || !GRAPH_ID.test(given)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `graph id must start with a letter or _ and hold only letters, digits, _ and - (at most 64), got ${describeValue(given)}`,
        { option: "graphId", value: given },
      );
    }
    return given;
  }
  const derived = nodePath()
    .basename(dir)
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return derived === "" ? "goap_agent" : /^[0-9]/.test(derived) ? `goap_${derived}` : derived;
}

/** An npm package name from the folder name: lower case, `-` for anything npm would refuse. */
function packageNameFor(dir: string): string {
  const name = nodePath()
    .basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name === "" ? "goap-agent" : name.slice(0, 214);
}

async function exists(path: string): Promise<boolean> {
  try {
    await nodeFs().promises.access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a deployable project for your own actions into `dir`: the actions
 * (a starter domain to replace), the served graph module, `langgraph.json`,
 * `package.json`, a self-hosted PostgreSQL server (`src/server.ts`), a
 * `tsconfig.json`, a `.gitignore` and a README that says how to develop,
 * self-host and deploy. Existing files are never overwritten unless
 * `force` is set: the error names the first one found.
 *
 * @example
 * ```ts
 * const { files } = await scaffoldDeployment("my-agent");
 * // npm install && npm run dev  (in my-agent/)
 * ```
 *
 * @param dir - The project folder (created when missing).
 * @param options - Graph id, langgoap version, overwrite. @defaultValue {}
 * @returns The folder, the graph id and the files written.
 */
export async function scaffoldDeployment(dir: string, options: ScaffoldDeploymentOptions = {}): Promise<ScaffoldedDeployment> {
  if (typeof dir !== "string" || dir.trim() === "") {
    throw new LangGoapError("INVALID_OPTION", `scaffoldDeployment: dir must be a folder path, got ${describeValue(dir)}`);
  }
  const root = nodePath().resolve(dir);
  const graphId = graphIdFor(root, options.graphId);
  const name = packageNameFor(root);
  const files: [string, string][] = [
    ["package.json", packageJsonTemplate(name, versions(options.langgoapVersion))],
    ["langgraph.json", langgraphJsonTemplate(graphId)],
    ["tsconfig.json", tsconfigTemplate()],
    [".gitignore", gitignoreTemplate()],
    ["README.md", readmeTemplate(name, graphId)],
    ["src/actions.ts", actionsTemplate()],
    ["src/graph.ts", graphTemplate(graphId)],
    ["src/server.ts", serverTemplate(graphId)],
  ];
  if (!options.force) {
    for (const [file] of files) {
      if (await exists(nodePath().join(root, file))) {
        throw new LangGoapError(
          "INVALID_OPTION",
          `${nodePath().join(root, file)} already exists; choose an empty folder or overwrite with --force`,
          {
            file: nodePath().join(root, file),
          },
        );
      }
    }
  }
  for (const [file, text] of files) {
    await nodeFs().promises.mkdir(nodePath().join(root, file, ".."), { recursive: true });
    await nodeFs().promises.writeFile(nodePath().join(root, file), text, "utf8");
  }
  return { dir: root, graphId, files: files.map(([file]) => file) };
}
