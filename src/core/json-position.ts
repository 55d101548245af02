/**
 * Where JSON text first goes wrong, for error messages: V8's `JSON.parse`
 * names a position for some mistakes ("at position 7") but not for others
 * ("Unexpected token 'a', ..."). Only called after `JSON.parse` failed, on
 * text whose nesting was already bounded, so plain recursion is safe.
 */

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/** @internal The offset of the first character that makes `text` invalid JSON (`text.length` when it ends too soon). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const skip = () => {
    while (i < text.length && WHITESPACE.has(text[i] as string)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 92) {
        i++;
        const e = text[i];
        if (e === "u") {
          for (let k = 1; k <= 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i + k] ?? "")) {
              i += k;
              fail();
            }
          }
          i += 5;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail();
      }
      i++;
    }
    fail();
  };
  const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";
  const digits = () => {
    if (!isDigit(text[i])) fail();
    while (isDigit(text[i])) i++;
  };
  const number = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else digits();
    if (text[i] === ".") {
      i++;
      digits();
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      digits();
    }
  };
  const value = (): void => {
    skip();
    const c = text[i];
    if (c === "{") {
      i++;
      skip();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        skip();
        if (text[i] !== '"') fail();
        string();
        skip();
        if (text[i] !== ":") fail();
        i++;
        value();
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === "[") {
      i++;
      skip();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) number();
    else fail();
  };
  try {
    value();
    skip();
    return Math.min(i, text.length);
  } catch (offset) {
    if (typeof offset === "number") return Math.min(offset, text.length);
    throw offset;
  }
}
