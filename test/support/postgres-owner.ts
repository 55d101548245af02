/**
 * A process that starts a private PostgreSQL with usePostgres, prints what
 * it started as one JSON line, and waits to be killed (postgres-watchdog.test.ts).
 */
import { usePostgres } from "./postgres.js";

const server = await usePostgres();
process.stdout.write(`${JSON.stringify({ url: server.url, watchdogPid: server.watchdogPid })}\n`);
setInterval(() => undefined, 60_000);
