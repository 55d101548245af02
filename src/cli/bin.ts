#!/usr/bin/env node
/**
 * The `langgoap` executable (`dist/cli/bin.js`). Ctrl-C aborts a search or
 * run in progress: searches yield to the event loop every few milliseconds,
 * so the signal stops them at once, and the command prints what it had
 * reached (search counters; for a run, the actions executed and the state)
 * and exits 130. A second Ctrl-C quits at once.
 */
import { processIo } from "./io.js";
import { runCli } from "./run-cli.js";

const controller = new AbortController();
process.once("SIGINT", () => {
  controller.abort();
  process.once("SIGINT", () => process.exit(130));
});
process.exitCode = await runCli(process.argv.slice(2), processIo(controller.signal));
