import { LangGoapError } from "../core/errors.js";

/** Where a piece of PDDL text starts: 1-based line and column. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** A symbol (`pick`, `?x`, `:typing`, `-`, `10`), lower-cased: PDDL is case-insensitive. */
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

/** Deepest nesting accepted; real domains stay under 20, and the reader must not be driven into a stack overflow. */
const MAX_DEPTH = 256;

/** @internal A `PDDL_SYNTAX` error naming the file and the position. */
export function syntaxError(file: string, at: SourcePosition, message: string): LangGoapError {
  return new LangGoapError("PDDL_SYNTAX", `${file}:${at.line}:${at.column}: ${message}`, {
    file,
    line: at.line,
    column: at.column,
  });
}

/**
 * @internal Reads PDDL text into s-expressions: comments (`;` to the end of
 * the line) dropped, symbols lower-cased, each node with its line and
 * column. Iterative, so hostile nesting cannot overflow the stack.
 */
export function readSExpressions(text: string, file: string): SList[] {
  if (typeof text !== "string") {
    throw new LangGoapError("PDDL_SYNTAX", `${file}: expected PDDL text (a string), got ${typeof text}`, { file });
  }
  const top: SExpr[] = [];
  const stack: { items: SExpr[]; at: SourcePosition }[] = [];
  let line = 1;
  let column = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === "\n") {
      line++;
      column = 1;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i++;
      column++;
      continue;
    }
    if (c === ";") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    const at = { line, column };
    if (c === "(") {
      if (stack.length >= MAX_DEPTH) throw syntaxError(file, at, `nesting deeper than ${MAX_DEPTH} levels`);
      stack.push({ items: [], at });
      i++;
      column++;
      continue;
    }
    if (c === ")") {
      const open = stack.pop();
      if (!open) throw syntaxError(file, at, "unexpected ')' with no '(' open");
      const list: SList = { kind: "list", items: open.items, line: open.at.line, column: open.at.column };
      (stack.length > 0 ? (stack[stack.length - 1] as { items: SExpr[] }).items : top).push(list);
      i++;
      column++;
      continue;
    }
    let end = i;
    while (end < n && !/[\s();]/.test(text[end] as string)) end++;
    const atom: SAtom = { kind: "atom", text: text.slice(i, end).toLowerCase(), ...at };
    if (stack.length === 0) throw syntaxError(file, at, `expected '(' but found ${JSON.stringify(atom.text)}`);
    (stack[stack.length - 1] as { items: SExpr[] }).items.push(atom);
    column += end - i;
    i = end;
  }
  if (stack.length > 0) {
    const open = stack[stack.length - 1] as { at: SourcePosition };
    throw syntaxError(file, open.at, "this '(' is never closed");
  }
  return top as SList[];
}
