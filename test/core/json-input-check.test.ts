import { describe, expect, it } from "vitest";
import { findJsonInputProblem } from "../../src/core/json-input-check.js";
import { LangGoapError, loadDomain, parseDataText } from "../../src/index.js";

function errorOf(run: () => unknown): LangGoapError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LangGoapError);
    return error as LangGoapError;
  }
  throw new Error("expected a LangGoapError");
}

describe("duplicate keys and inexact integers in JSON text", () => {
  it("sibling and nested objects may reuse keys; strings holding quotes, braces and commas are skipped", () => {
    const text = JSON.stringify({
      actions: [
        { name: "a", effects: { x: 1 }, metadata: { note: 'say "hi", {name: 1}, [2]', name: "\\" } },
        { name: "b", effects: { x: 2 }, metadata: { list: [{ name: 1 }, { name: 2 }] } },
      ],
      name: "outer",
    });
    expect(findJsonInputProblem(text)).toBeUndefined();
  });

  it("finds a key repeated in one object, escaped or not, with the object's path and the key's offset", () => {
    const text = '{"actions": [{"name": "a"}, {"name": "b", "effects": {"x": 1, "y": 2, "\\u0078": 3}}]}';
    expect(findJsonInputProblem(text)).toEqual({
      reason: "duplicate_key",
      offset: text.indexOf('"\\u0078"'),
      path: "$.actions[1].effects",
      text: "x",
    });
    expect(findJsonInputProblem('{"a b": {"k": 1, "k": 2}}')?.path).toBe('$["a b"]');
  });

  it("finds integer literals beyond 2^53 - 1, and leaves fractions, exponents and safe integers alone", () => {
    expect(
      findJsonInputProblem('{"n": [9007199254740991, -9007199254740991, 1e20, 9007199254740993.5, 0.30000000000000004]}'),
    ).toBeUndefined();
    expect(findJsonInputProblem('{"n": [1, 2, 9007199254740992]}')).toEqual({
      reason: "unsafe_integer",
      offset: 13,
      path: "$.n[2]",
      text: "9007199254740992",
    });
  });

  it("loadDomain refuses both in JSON text, and a repeated top-level goal", () => {
    const twice = errorOf(() =>
      loadDomain('{"goal": {"a": true}, "actions": [{"name": "x", "effects": {"a": true}}], "goal": {"a": false}}', {
        sourceName: "d.json",
      }),
    );
    expect(twice.code).toBe("INVALID_DOMAIN");
    expect(twice.details).toMatchObject({ reason: "duplicate_key", key: "goal", path: "$", line: 1, column: 75 });
    expect(twice.message).toBe(
      'd.json: JSON (line 1, column 75): $: key "goal" is given twice; keys must be unique (the first value would be silently dropped)',
    );
    const big = errorOf(() => loadDomain('{"state": {"n": 18014398509481985}, "actions": [{"name": "x"}]}'));
    expect(big.details).toMatchObject({ reason: "unsafe_integer", path: "$.state.n", literal: "18014398509481985" });
  });

  it("YAML: duplicates were already refused; inexact integers are refused with their path, floats kept", () => {
    expect(errorOf(() => parseDataText("a: 1\na: 2\n")).details).toMatchObject({ yamlCode: "DUPLICATE_KEY" });
    const e = errorOf(() => parseDataText("state:\n  list: [1, -9007199254740993]\n"));
    expect(e.message).toMatch(/^YAML \(line 2, column 13\): \$\.state\.list\[1\]: the integer -9007199254740993 is beyond/);
    expect(parseDataText("x: 1e300\ny: 9007199254740991\n")).toEqual({ x: 1e300, y: 9007199254740991 });
  });
});
