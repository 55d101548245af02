import { LangGoapError } from "../core/errors.js";
import type { PddlParameter, PddlTerm } from "./ast.js";
import { type SAtom, type SExpr, type SList, type SourcePosition, syntaxError } from "./sexpr.js";

/** What the reader supports, named in every `PDDL_UNSUPPORTED` message. */
export const SUPPORTED_PDDL =
  "what Fast Downward's translator reads, less derived predicates: STRIPS, :typing, :negative-preconditions, :equality, :disjunctive-preconditions, quantifiers, :conditional-effects, :action-costs";

/** @internal Reading helpers shared by the domain and problem readers; each error names the file, line and column. */
export class PddlReader {
  constructor(readonly file: string) {}

  fail(at: SourcePosition, message: string): LangGoapError {
    return syntaxError(this.file, at, message);
  }

  unsupported(at: SourcePosition, what: string): LangGoapError {
    return new LangGoapError(
      "PDDL_UNSUPPORTED",
      `${this.file}:${at.line}:${at.column}: ${what} is not supported (supported: ${SUPPORTED_PDDL})`,
      {
        file: this.file,
        line: at.line,
        column: at.column,
      },
    );
  }

  list(expr: SExpr | undefined, what: string, near: SourcePosition): SList {
    if (expr?.kind !== "list")
      throw this.fail(expr ?? near, `expected ${what} in parentheses${expr ? `, found ${JSON.stringify(expr.text)}` : ""}`);
    return expr;
  }

  /** A list with at least one item. */
  block(expr: SExpr | undefined, what: string, near: SourcePosition): SList {
    const list = this.list(expr, what, near);
    if (list.items.length === 0) throw this.fail(list, `expected ${what}, found ()`);
    return list;
  }

  atom(expr: SExpr | undefined, what: string, near: SourcePosition): SAtom {
    if (expr?.kind !== "atom") throw this.fail(expr ?? near, `expected ${what}${expr ? ", found a list" : ""}`);
    return expr;
  }

  /** A name: a word that is no variable and no separator. */
  name(expr: SExpr | undefined, what: string, near: SourcePosition): string {
    const atom = this.atom(expr, what, near);
    if (atom.text.startsWith("?") || atom.text === "-") throw this.fail(atom, `expected ${what}, found ${JSON.stringify(atom.text)}`);
    return atom.text;
  }

  /** The head word of a list (`and`, `:action`, a predicate), or undefined for `()` or a list head. */
  head(list: SList): string | undefined {
    const first = list.items[0];
    return first?.kind === "atom" ? first.text : undefined;
  }

  /**
   * A typed list, grouped as Fast Downward groups it: `a b - t c - u d` →
   * a:t, b:t, c:u, d:`defaultType`. `(either t u)` is read only where
   * `eitherAllowed` (predicate arguments, whose types nothing checks);
   * elsewhere Fast Downward refuses it, and so does this reader.
   */
  typedList(
    items: readonly SExpr[],
    what: string,
    near: SourcePosition,
    options: { variables: boolean; eitherAllowed?: boolean; defaultType?: string },
  ): (PddlParameter & { at: SourcePosition })[] {
    const out: (PddlParameter & { at: SourcePosition })[] = [];
    let pending: SAtom[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as SExpr;
      if (item.kind === "atom" && item.text === "-") {
        const type = items[i + 1];
        if (type === undefined) throw this.fail(item, `a type is missing after '-' in ${what}`);
        const typeName = this.typeName(type, what, options.eitherAllowed === true);
        for (const p of pending) out.push({ name: p.text, type: typeName, at: p });
        pending = [];
        i++;
        continue;
      }
      const atom = this.atom(item, `a name in ${what}`, near);
      if (options.variables !== atom.text.startsWith("?") || (options.variables && atom.text.length < 2)) {
        throw this.fail(
          atom,
          `expected ${options.variables ? "a variable like ?x" : "a name"} in ${what}, found ${JSON.stringify(atom.text)}`,
        );
      }
      pending.push(atom);
    }
    for (const p of pending) out.push({ name: p.text, type: options.defaultType ?? "object", at: p });
    return out;
  }

  private typeName(type: SExpr, what: string, eitherAllowed: boolean): string {
    if (type.kind === "atom") {
      if (type.text.startsWith("?") || type.text === "-")
        throw this.fail(type, `expected a type after '-' in ${what}, found ${JSON.stringify(type.text)}`);
      return type.text;
    }
    if (this.head(type) !== "either") throw this.fail(type, `expected a type name or (either …) after '-' in ${what}`);
    if (!eitherAllowed)
      throw this.unsupported(type, `an (either …) type in ${what} (Fast Downward reads it in predicate declarations only)`);
    const names = type.items.slice(1).map((t) => this.name(t, "a type name in (either …)", type));
    return ["either", ...names].join(" ");
  }

  /** A term of a formula, checked against the names in scope (`Undefined variable/object` in Fast Downward). */
  term(expr: SExpr | undefined, near: SourcePosition, scope: TermScope): PddlTerm {
    const atom = this.atom(expr, "a variable or an object", near);
    if (atom.text.startsWith("?")) {
      if (!scope.variables.has(atom.text)) throw this.fail(atom, `unknown variable ${atom.text}`);
      return { variable: atom.text };
    }
    if (!scope.objects.has(atom.text)) throw this.fail(atom, `unknown object ${JSON.stringify(atom.text)}`);
    return { object: atom.text };
  }
}

/** The names a formula may use: objects (constants, and the problem's objects in a problem) and the variables bound around it. */
export interface TermScope {
  readonly objects: ReadonlyMap<string, string> | ReadonlySet<string>;
  readonly variables: ReadonlySet<string>;
}
