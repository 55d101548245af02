/**
 * Runs documentation snippets (test/docs/snippets.test.ts) one after the
 * other in this one process, so the library and LangGraph load once rather
 * than once a snippet: `tsx --tsconfig <dir>/tsconfig.json
 * doc-snippet-runner.ts <results.json> <program.ts>...`. Each program's
 * output (stdout, console) is captured apart; the results file gets, per
 * program, its output, and the error it threw or the time it ran past.
 * The library is imported once before the first program, so no program's
 * time limit pays for loading it. A program that runs past its limit may
 * still be running, and would write into the next one's output, so the
 * runner stops there; the test starts a new runner for the rest.
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

interface SnippetResult {
  readonly file: string;
  readonly ok: boolean;
  readonly output: string;
  readonly error?: string;
  readonly ms: number;
}

const TIMEOUT_MS = Number(process.env.DOC_SNIPPET_TIMEOUT_MS ?? 120_000);
const [resultsPath, ...files] = process.argv.slice(2);
if (!resultsPath) throw new Error("usage: doc-snippet-runner.ts <results.json> <program.ts>...");

// Loaded once, before any program's clock starts (resolved through the snippets' tsconfig paths).
const LIBRARY: string = "langgoap"; // a variable: the repository's own tsconfig has no such path
await import(LIBRARY);

const results: SnippetResult[] = [];
const realWrite = process.stdout.write.bind(process.stdout);

for (const file of files) {
  let output = "";
  process.stdout.write = ((chunk: string | Uint8Array) => {
    output += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }) as typeof process.stdout.write;
  const started = performance.now();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      import(pathToFileURL(file).href),
      new Promise((_, fail) => {
        timer = setTimeout(() => {
          timedOut = true;
          fail(new Error(`did not finish within ${TIMEOUT_MS} ms`));
        }, TIMEOUT_MS);
      }),
    ]);
    results.push({ file, ok: true, output, ms: performance.now() - started });
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    results.push({ file, ok: false, output, error: text, ms: performance.now() - started });
  } finally {
    clearTimeout(timer);
    process.stdout.write = realWrite;
  }
  writeFileSync(resultsPath, JSON.stringify(results, null, 2));
  if (timedOut) break;
}

// A snippet may leave a server or a timer behind on failure; the results are written, so stop here.
process.exit(0);
