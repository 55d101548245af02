import { displayText, escapeControlChars } from "../core/display-text.js";
import type { CliIo } from "./io.js";

/**
 * The CLI prints names, facts, tool errors and values that came from data.
 * A raw ESC, CR, C1 control or bidi override in them would drive the user's
 * terminal (clear the screen, rewrite a line, reorder text), so each value
 * is escaped where it is formatted, and everything the CLI writes passes a
 * last check that makes any control character left visible.
 */

/** Longest value printed on a terminal line; longer ones are cut with a marker. */
export const MAX_TERMINAL_VALUE = 1000;

/**
 * @internal A value from data as one terminal-safe line: bounded, with
 * every control, bidi and invisible character (newlines too) made visible.
 */
export function terminalText(text: string): string {
  return displayText(text, { maxChars: MAX_TERMINAL_VALUE });
}

const RAW = new WeakMap<CliIo, CliIo>();

/**
 * @internal The CLI's output streams with control characters made visible
 * in everything written (newlines and tabs are kept: the CLI writes them).
 * JSON stays valid and equal: the escapes are JSON's own.
 */
export function terminalSafeIo(io: CliIo): CliIo {
  const safe: CliIo = {
    ...io,
    stdout: (text) => io.stdout(escapeControlChars(text, { keepLineBreaks: true })),
    stderr: (text) => io.stderr(escapeControlChars(text, { keepLineBreaks: true })),
  };
  RAW.set(safe, RAW.get(io) ?? io);
  return safe;
}

/**
 * @internal The unfiltered streams behind {@link terminalSafeIo}, for the
 * one writer that sends terminal sequences on purpose (the progress line
 * redraws itself with CR and ESC[K); it escapes its own text.
 */
export function rawIo(io: CliIo): CliIo {
  return RAW.get(io) ?? io;
}
