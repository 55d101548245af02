/**
 * What `JSON.parse` accepts but silently changes: a key given twice keeps
 * its last value (`{"a": false, "a": true}` is `{a: true}`), and an integer
 * beyond ±(2^53 − 1) is rounded (`9007199254740993` reads as
 * `9007199254740992`, so two different integers compare equal). Both are
 * refused in domain files and `--goal`/`--state`; this finds the first.
 */

/** The first duplicate key or inexact integer in JSON text, with where it is. */
export interface JsonInputProblem {
  readonly reason: "duplicate_key" | "unsafe_integer";
  /** Offset of the key's or the number's first character. */
  readonly offset: number;
  /** JSON path of the object holding the key, or of the number. */
  readonly path: string;
  /** The key given twice, or the integer's literal text. */
  readonly text: string;
}

interface Frame {
  /** Keys seen so far; `null` for an array. */
  readonly keys: Set<string> | null;
  /** The current key (objects) or index (arrays). */
  key: string;
  index: number;
  /** In an object, true from `{` or `,` until the key's `:`. */
  expectKey: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function pathOf(stack: readonly Frame[], depth: number): string {
  let out = "$";
  for (let d = 0; d < depth; d++) {
    const frame = stack[d] as Frame;
    out += frame.keys === null ? `[${frame.index}]` : IDENTIFIER.test(frame.key) ? `.${frame.key}` : `[${JSON.stringify(frame.key)}]`;
  }
  return out;
}

/** Offset just past the string whose opening quote is at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return end + 1;
    end = text.indexOf('"', end + 1);
  }
}

/** True for a character of a JSON number: digits, sign, point, exponent. */
function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}

/**
 * Scans JSON text that `JSON.parse` already accepted (so it is well formed
 * and its nesting was bounded) for a key repeated in one object and for an
 * integer literal no JavaScript number holds exactly. A number written
 * with a fraction or an exponent (`1e20`) says it may be approximate and is
 * left alone. Linear in the text; paths are built only for the problem.
 *
 * @internal
 */
export function findJsonInputProblem(text: string): JsonInputProblem | undefined {
  const stack: Frame[] = [];
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i);
      const top = depth > 0 ? (stack[depth - 1] as Frame) : undefined;
      if (top?.keys && top.expectKey) {
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end)) as string) : raw;
        if (top.keys.has(key)) return { reason: "duplicate_key", offset: i, path: pathOf(stack, depth - 1), text: key };
        top.keys.add(key);
        top.key = key;
      }
      i = end - 1;
    } else if (c === 123 || c === 91) {
      const frame = stack[depth];
      const keys = c === 123 ? new Set<string>() : null;
      if (frame === undefined || (frame.keys === null) !== (keys === null)) stack[depth] = { keys, key: "", index: 0, expectKey: true };
      else {
        // Reuse the frame (and its Set) of a closed sibling: a million actions do not make a million Sets.
        frame.keys?.clear();
        frame.key = "";
        frame.index = 0;
        frame.expectKey = true;
      }
      depth++;
    } else if (c === 125 || c === 93) depth--;
    else if (c === 44) {
      const top = stack[depth - 1] as Frame;
      if (top.keys) top.expectKey = true;
      else top.index++;
    } else if (c === 58) (stack[depth - 1] as Frame).expectKey = false;
    else if (c === 45 || (c >= 48 && c <= 57)) {
      let end = i + 1;
      while (end < n && isNumberChar(text.charCodeAt(end))) end++;
      const literal = text.slice(i, end);
      // 15 digits or fewer are always exact; only longer integer literals need a look.
      if (end - i > 15 && !/[.eE]/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        return { reason: "unsafe_integer", offset: i, path: pathOf(stack, depth), text: literal };
      }
      i = end - 1;
    }
  }
  return undefined;
}
