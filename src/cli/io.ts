import { spawn } from "node:child_process";

/**
 * Where the CLI reads and writes. `runCli` takes one of these so tests run
 * commands in-process with captured output and a fake clock; `bin.ts`
 * passes {@link processIo}.
 */
export interface CliIo {
  /** Receives the command's output. */
  readonly stdout: (text: string) => void;
  /** Receives diagnostics, errors and the progress line. */
  readonly stderr: (text: string) => void;
  /** Base of relative paths. @defaultValue process.cwd() */
  readonly cwd?: string;
  /** True when stderr is a terminal: the progress line is then redrawn in place. @defaultValue false */
  readonly stderrIsTTY?: boolean;
  /** Clock in milliseconds, for progress timing. @defaultValue performance.now */
  readonly now?: () => number;
  /** Aborts a search or run in progress (bin.ts wires Ctrl-C to it). */
  readonly signal?: AbortSignal;
  /** Opens a written file for `--open`. @defaultValue the platform's opener (open, xdg-open, start) */
  readonly openFile?: (path: string) => Promise<void>;
}

/**
 * Opens `path` with the platform's default application, without waiting
 * for it. Rejects when no opener is available (e.g. a server without a
 * desktop), so the caller can say where the file is instead.
 */
export function openWithDefaultApp(path: string): Promise<void> {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [path]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", path]]
        : ["xdg-open", [path]];
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, args as string[], { detached: true, stdio: "ignore" });
    child.once("error", reject);
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}

/** The real process: stdout, stderr, the working directory and the clock. */
export function processIo(signal?: AbortSignal): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    now: () => performance.now(),
    openFile: openWithDefaultApp,
    ...(signal ? { signal } : {}),
  };
}
