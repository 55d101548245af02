import { formatMs } from "../viz/index.js";
import type { CliIo } from "./io.js";
import { rawIo, terminalText } from "./terminal-text.js";

/** Show the progress line only for work longer than this. */
const QUIET_FOR_MS = 1000;
/** Redraw interval of the in-place line on a terminal. */
const REDRAW_MS = 250;

/**
 * The progress line on stderr for searches and runs longer than a second.
 * On a terminal it is redrawn in place and erased at the end; elsewhere
 * (logs, CI) a line is printed after 1s, 2s, 4s, 8s... so logs stay short.
 *
 * The A* search is synchronous, so no timer can fire while it runs. It
 * polls `signal.aborted` every few hundred expansions; {@link signal} is a
 * view of the run's abort signal that ticks this reporter on each poll.
 * Asynchronous work (MCTS, graph runs) is ticked by a timer as well.
 */
export class Progress {
  readonly #io: CliIo;
  readonly #label: () => string;
  readonly #now: () => number;
  readonly #started: number;
  #nextReport: number;
  #shown = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly signal: AbortSignal | undefined;

  /**
   * @param io - Where the line goes, with the clock.
   * @param label - What is going on, e.g. `searching with astar (budget 2s)`.
   */
  constructor(io: CliIo, label: () => string) {
    // The line redraws itself with CR and ESC[K, which the CLI's safe streams would escape.
    this.#io = rawIo(io);
    this.#label = label;
    this.#now = io.now ?? (() => performance.now());
    this.#started = this.#now();
    this.#nextReport = this.#started + QUIET_FOR_MS;
    this.signal = io.signal ? pollingView(io.signal, () => this.tick()) : pollingView(new AbortController().signal, () => this.tick());
    this.#timer = setInterval(() => this.tick(), REDRAW_MS);
    this.#timer.unref?.();
  }

  /** Prints or redraws the line when it is due. */
  tick(): void {
    const now = this.#now();
    if (now < this.#nextReport) return;
    const elapsed = now - this.#started;
    const line = `langgoap: ${terminalText(this.#label())}… ${formatMs(Math.round(elapsed / 100) * 100)}`;
    if (this.#io.stderrIsTTY) {
      this.#io.stderr(`\r\x1b[K${line}`);
      this.#nextReport = now + REDRAW_MS;
    } else {
      this.#io.stderr(`${line}\n`);
      this.#nextReport = this.#started + 2 * elapsed;
    }
    this.#shown = true;
  }

  /** Stops the timer and erases an in-place line. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#shown && this.#io.stderrIsTTY) this.#io.stderr("\r\x1b[K");
  }
}

/**
 * The same signal, except that reading `aborted` also calls `onPoll`. A
 * proxy keeps `instanceof AbortSignal`, listeners and `reason` working:
 * every other property is read from (and bound to) the real signal.
 */
function pollingView(signal: AbortSignal, onPoll: () => void): AbortSignal {
  return new Proxy(signal, {
    get(target, property) {
      if (property === "aborted") onPoll();
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
