/**
 * Which process wrote a record, and whether that process still runs. Node
 * modules are fetched on first use so importing the graph layer stays
 * free of them and bundles for the browser (only recoveries ask).
 */

import { nodeBuiltin } from "../core/node-builtin.js";

/** @internal A process as records name it. */
export interface ProcessIdentity {
  readonly host: string;
  readonly pid: number;
  /**
   * When the process started, where the system says (Linux: the boot id
   * and the start time in `/proc`), so a recycled pid is told apart; null
   * elsewhere.
   */
  readonly start: string | null;
}

/** @internal Whether a process runs: `unknown` for a process on another host. */
export type Liveness = "alive" | "gone" | "unknown";

let own: Promise<ProcessIdentity> | undefined;

/** @internal This process. */
export function thisProcess(): Promise<ProcessIdentity> {
  own ??= (async () => {
    const { hostname } = nodeBuiltin("node:os", "recover");
    return { host: hostname(), pid: process.pid, start: await startOf(process.pid) };
  })();
  // A failure is not kept: the next call asks again.
  own.catch(() => {
    own = undefined;
  });
  return own;
}

/** The boot id and start time of process `pid` (Linux), or null (not Linux, or no such process). */
async function startOf(pid: number): Promise<string | null> {
  try {
    const { readFile } = nodeBuiltin("node:fs/promises", "recover");
    const [boot, stat] = await Promise.all([readFile("/proc/sys/kernel/random/boot_id", "utf8"), readFile(`/proc/${pid}/stat`, "utf8")]);
    // The command name (field 2) may hold spaces and parentheses: fields are counted from its closing parenthesis; the start time is field 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const started = fields[19];
    return started ? `${boot.trim()}:${started}` : null;
  } catch {
    return null;
  }
}

/**
 * @internal Whether process `p` still runs, as far as this process can
 * see: on the same host by its pid (and its start time where the system
 * gives one, so a recycled pid is not mistaken for it); on another host it
 * cannot be seen.
 */
export async function liveness(p: ProcessIdentity): Promise<Liveness> {
  const me = await thisProcess();
  if (p.host !== me.host) return "unknown";
  if (p.pid === me.pid && p.start === me.start) return "alive";
  if (p.start !== null && me.start !== null) {
    // Same host, a start time known: the process runs when a process with that pid started then.
    return (await startOf(p.pid)) === p.start ? "alive" : "gone";
  }
  try {
    process.kill(p.pid, 0);
    return "alive";
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as { code?: string }).code === "EPERM" ? "alive" : "gone";
  }
}
