import { LangGoapError } from "../core/errors.js";

/** Where a piece of PDDL text starts: 1-based line and column. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** A word (`pick`, `?x`, `:typing`, `-`, `10`), lower-cased: PDDL is case-insensitive. */
export interface SAtom extends SourcePosition {
  readonly kind: "atom";
  readonly text: string;
}

/** A parenthesised list. */
export interface SList extends SourcePosition {
  readonly kind: "list";
  readonly items: readonly SExpr[];
}

export type SExpr = SAtom | SList;

/**
 * Deepest nesting accepted. Fast Downward's reader recurses once per level
 * and stops near Python's limit of 1,000 frames; real domains stay under
 * 30, and this reader must not be driven into a stack overflow either.
 */
const MAX_DEPTH = 1000;

/** @internal A `PDDL_SYNTAX` error naming the file and the position. */
export function syntaxError(file: string, at: SourcePosition, message: string): LangGoapError {
  return new LangGoapError("PDDL_SYNTAX", `${file}:${at.line}:${at.column}: ${message}`, {
    file,
    line: at.line,
    column: at.column,
  });
}

const OPEN = 40; // (
const CLOSE = 41; // )
const QUESTION = 63; // ?
const SEMICOLON = 59; // ;
const NEWLINE = 10;
const RETURN = 13;

/** Python's `str.split()` separators within ASCII, as Fast Downward's tokenizer splits: tab to carriage return, 0x1C-0x1F, space. */
function isSeparator(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || (code >= 0x1c && code <= 0x1f);
}

/**
 * @internal Reads one PDDL file into its top-level list, with Fast
 * Downward's tokenizer rules: a comment runs from `;` to the end of the
 * line, parentheses are tokens of their own, `?` always starts a new
 * token, every word is lower-cased, characters outside ASCII are refused
 * outside comments, and the file must hold exactly one list. Each node
 * keeps its line and column; iterative, so hostile nesting cannot
 * overflow the stack.
 */
export function readPddlList(text: string, file: string): SList {
  if (typeof text !== "string") {
    throw new LangGoapError("PDDL_SYNTAX", `${file}: expected PDDL text (a string), got ${typeof text}`, { file });
  }
  let top: SList | undefined;
  const stack: { items: SExpr[]; line: number; column: number }[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE || c === RETURN) {
      // \r\n, \n and a lone \r each end a line, as Python's universal newlines read them.
      if (c === RETURN && text.charCodeAt(i + 1) === NEWLINE) i++;
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (isSeparator(c)) {
      i++;
      continue;
    }
    if (c === SEMICOLON) {
      while (i < n && text.charCodeAt(i) !== NEWLINE && text.charCodeAt(i) !== RETURN) i++;
      continue;
    }
    const at = { line, column: i - lineStart + 1 };
    if (c > 127) throw syntaxError(file, at, `a character outside ASCII (${JSON.stringify(text[i])}) outside a comment`);
    if (c === CLOSE && stack.length === 0) throw syntaxError(file, at, "unexpected ')' with no '(' open");
    if (top !== undefined) {
      throw syntaxError(file, at, `text after the end of the file's one list: ${JSON.stringify(wordAt(text, i))}`);
    }
    if (c === OPEN) {
      if (stack.length >= MAX_DEPTH) throw syntaxError(file, at, `nesting deeper than ${MAX_DEPTH} levels`);
      stack.push({ items: [], line: at.line, column: at.column });
      i++;
      continue;
    }
    if (c === CLOSE) {
      const open = stack.pop() as { items: SExpr[]; line: number; column: number };
      const list: SList = { kind: "list", items: open.items, line: open.line, column: open.column };
      const parent = stack[stack.length - 1];
      if (parent) parent.items.push(list);
      else top = list;
      i++;
      continue;
    }
    let end = i + 1;
    let upper = c >= 65 && c <= 90;
    while (end < n) {
      const d = text.charCodeAt(end);
      if (d === OPEN || d === CLOSE || d === SEMICOLON || d === QUESTION || isSeparator(d) || d > 127) break;
      if (d >= 65 && d <= 90) upper = true;
      end++;
    }
    const parent = stack[stack.length - 1];
    if (!parent) throw syntaxError(file, at, `expected '(' but found ${JSON.stringify(text.slice(i, end))}`);
    const word = text.slice(i, end);
    parent.items.push({ kind: "atom", text: upper ? word.toLowerCase() : word, line: at.line, column: at.column });
    i = end;
  }
  const open = stack[stack.length - 1];
  if (open) throw syntaxError(file, open, "this '(' is never closed");
  if (top === undefined) throw syntaxError(file, { line, column: 1 }, "the file holds no PDDL (expected '(define …)')");
  return top;
}

function wordAt(text: string, i: number): string {
  const rest = text.slice(i, i + 40);
  const match = /^[^\s();]+|^[()]/.exec(rest);
  return match ? match[0] : rest;
}
