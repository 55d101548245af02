import { LangGoapError } from "../core/errors.js";
import type { PddlAtom, PddlLiteral, PddlParameter, PddlTerm } from "./ast.js";
import { type SAtom, type SExpr, type SList, type SourcePosition, syntaxError } from "./sexpr.js";

/** @internal Reading helpers shared by the domain and problem readers; each error names the file, line and column. */
export class PddlReader {
  constructor(readonly file: string) {}

  fail(at: SourcePosition, message: string): LangGoapError {
    return syntaxError(this.file, at, message);
  }

  unsupported(at: SourcePosition, what: string): LangGoapError {
    return new LangGoapError(
      "PDDL_UNSUPPORTED",
      `${this.file}:${at.line}:${at.column}: ${what} is not supported (supported: STRIPS with :typing, :negative-preconditions, :equality, constants and :action-costs)`,
      { file: this.file, line: at.line, column: at.column },
    );
  }

  list(expr: SExpr | undefined, what: string, near: SourcePosition): SList {
    if (expr?.kind !== "list") throw this.fail(expr ?? near, `expected ${what} in parentheses`);
    return expr;
  }

  atom(expr: SExpr | undefined, what: string, near: SourcePosition): SAtom {
    if (expr?.kind !== "atom") throw this.fail(expr ?? near, `expected ${what}`);
    return expr;
  }

  name(expr: SExpr | undefined, what: string, near: SourcePosition): string {
    const atom = this.atom(expr, what, near);
    if (atom.text.startsWith("?") || atom.text.startsWith(":") || atom.text === "-") {
      throw this.fail(atom, `expected ${what}, found ${JSON.stringify(atom.text)}`);
    }
    return atom.text;
  }

  /** The head symbol of a list (`and`, `:action`, a predicate), or undefined for `()`. */
  head(list: SList): string | undefined {
    const first = list.items[0];
    return first?.kind === "atom" ? first.text : undefined;
  }

  /** `a b - t c - u d` → [[a,t],[b,t],[c,u],[d,object]]; `either` types are refused. */
  typedList(items: readonly SExpr[], what: string, near: SourcePosition, variables: boolean): PddlParameter[] {
    const out: PddlParameter[] = [];
    let pending: SAtom[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as SExpr;
      if (item.kind === "atom" && item.text === "-") {
        const type = items[i + 1];
        if (type?.kind === "list") throw this.unsupported(type, "an (either …) type");
        const typeName = this.name(type, `a type after '-' in ${what}`, item);
        if (pending.length === 0) throw this.fail(item, `'-' ${typeName} in ${what} follows no name`);
        for (const p of pending) out.push({ name: p.text, type: typeName });
        pending = [];
        i++;
        continue;
      }
      const atom = this.atom(item, `a name in ${what}`, near);
      if (variables !== atom.text.startsWith("?") || atom.text.length < (variables ? 2 : 1)) {
        throw this.fail(atom, `expected ${variables ? "a variable like ?x" : "a name"} in ${what}, found ${JSON.stringify(atom.text)}`);
      }
      pending.push(atom);
    }
    for (const p of pending) out.push({ name: p.text, type: "object" });
    return out;
  }

  term(expr: SExpr | undefined, near: SourcePosition): PddlTerm {
    const atom = this.atom(expr, "a variable or an object", near);
    return atom.text.startsWith("?") ? { variable: atom.text } : { object: atom.text };
  }

  atomFormula(list: SList): PddlAtom {
    const predicate = this.name(list.items[0], "a predicate name", list);
    return { predicate, args: list.items.slice(1).map((e) => this.term(e, list)), at: list };
  }

  /** A conjunction of literals (precondition or goal); `or`, quantifiers and implications are refused. */
  conjunction(expr: SExpr | undefined, what: string, near: SourcePosition, out: PddlLiteral[] = []): PddlLiteral[] {
    const list = this.list(expr, what, near);
    const head = this.head(list);
    if (list.items.length === 0) return out;
    if (head === "and") {
      for (const part of list.items.slice(1)) this.conjunction(part, what, list, out);
      return out;
    }
    if (head === "or" || head === "imply" || head === "exists" || head === "forall") {
      throw this.unsupported(list, `(${head} …) in ${what}`);
    }
    if (head === "not") {
      if (list.items.length !== 2) throw this.fail(list, "(not …) takes exactly one formula");
      const inner = this.list(list.items[1], "a formula under not", list);
      const innerHead = this.head(inner);
      if (innerHead === "=") {
        out.push(this.equality(inner, true));
        return out;
      }
      if (innerHead === "and" || innerHead === "or" || innerHead === "not" || innerHead === "exists" || innerHead === "forall") {
        throw this.unsupported(inner, `(not (${innerHead} …)) in ${what}`);
      }
      out.push({ kind: "atom", atom: this.atomFormula(inner), negated: true });
      return out;
    }
    if (head === "=") {
      out.push(this.equality(list, false));
      return out;
    }
    if (head === "<" || head === ">" || head === "<=" || head === ">=") throw this.unsupported(list, `a numeric comparison (${head} …)`);
    out.push({ kind: "atom", atom: this.atomFormula(list), negated: false });
    return out;
  }

  equality(list: SList, negated: boolean): PddlLiteral {
    if (list.items.length !== 3) throw this.fail(list, "(= …) takes exactly two terms");
    const left = list.items[1];
    const right = list.items[2];
    if (left?.kind === "list" || right?.kind === "list") throw this.unsupported(list, "a numeric (= …) condition");
    return { kind: "equal", left: this.term(left, list), right: this.term(right, list), negated };
  }

  /** Splits a `(define …)` body into its sections, keyed by their head (`:requirements`, `:action`, …). */
  sections(define: SList, kind: "domain" | "problem"): { name: string; sections: SList[] } {
    if (this.head(define) !== "define") throw this.fail(define, `expected (define (${kind} NAME) …)`);
    const header = this.list(define.items[1], `(${kind} NAME)`, define);
    if (this.head(header) !== kind) throw this.fail(header, `expected (${kind} NAME), found (${this.head(header) ?? ""} …)`);
    const name = this.name(header.items[1], `a ${kind} name`, header);
    const sections = define.items.slice(2).map((s) => {
      const section = this.list(s, "a section like (:requirements …)", define);
      const head = this.head(section);
      if (!head?.startsWith(":")) throw this.fail(section, `expected a section like (:requirements …), found (${head ?? ""} …)`);
      return section;
    });
    return { name, sections };
  }
}
