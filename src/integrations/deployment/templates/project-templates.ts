/** @internal Versions written into a scaffolded project's package.json. */
export interface ScaffoldVersions {
  /** The `langgoap` dependency: a range, or a `file:` path to a tarball. */
  readonly langgoap: string;
  /** Ranges of langgoap's own peers (`@langchain/core`, `@langchain/langgraph`, the Postgres checkpointer). */
  readonly peers: Readonly<Record<string, string>>;
}

/**
 * Server-side packages of the scaffold. `@langchain/langgraph-api` 1.x wants
 * TypeScript 5 as a peer (its schema parser uses the compiler API), hence
 * `typescript ^5.9.3` rather than 7. `@hono/node-server` 1.x is what its
 * `@hono/node-ws` asks for (the API keeps its own 2.x); both serve alike.
 */
const SERVER_DEPENDENCIES = {
  "@hono/node-server": "^1.19.11",
  "@langchain/langgraph-api": "^1.5.1",
  tsx: "^4.20.0",
};
const DEV_DEPENDENCIES = {
  "@langchain/langgraph-cli": "^1.5.1",
  "@types/node": "^20.19.0",
  typescript: "^5.9.3",
};

function sorted(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** @internal `package.json` of a scaffolded deployment. */
export function packageJsonTemplate(name: string, versions: ScaffoldVersions): string {
  const pkg = {
    name,
    version: "0.1.0",
    private: true,
    type: "module",
    engines: { node: ">=20.19" },
    scripts: {
      dev: "langgraphjs dev --no-browser",
      start: "tsx src/server.ts",
      typecheck: "tsc --noEmit",
    },
    dependencies: sorted({ langgoap: versions.langgoap, ...versions.peers, ...SERVER_DEPENDENCIES }),
    devDependencies: sorted(DEV_DEPENDENCIES),
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** @internal `langgraph.json` of a scaffolded deployment. */
export function langgraphJsonTemplate(graphId: string): string {
  const config = {
    $schema: "https://langgra.ph/schema.json",
    node_version: "20",
    dependencies: ["."],
    graphs: { [graphId]: "./src/graph.ts:graph" },
    env: {},
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** @internal `tsconfig.json` of a scaffolded deployment. */
export function tsconfigTemplate(): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    },
    include: ["src/**/*.ts"],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** @internal `.gitignore` of a scaffolded deployment (the dev server keeps its in-memory data under `.langgraph_api`). */
export function gitignoreTemplate(): string {
  return "node_modules/\n.langgraph_api/\n.env\n";
}
