/**
 * The position of a JSON syntax error: ours agrees with V8's wherever V8
 * names one, and exists where V8's message gives none.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonErrorOffset } from "../../src/core/json-position.js";

function v8Offset(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const at = /at position (\d+)/.exec((error as Error).message)?.[1];
    return at === undefined ? -1 : Number(at);
  }
}

describe("jsonErrorOffset", () => {
  it("matches V8 on broken JSON, wherever V8 names a position", () => {
    const broken = fc
      .tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.constantFrom(",", "}", "]", "'", "x", "/", '"', ":", ""), fc.boolean())
      .map(([json, at, insert, remove]) => {
        const i = at % (json.length + 1);
        return json.slice(0, i) + insert + json.slice(remove ? i + 1 : i);
      });
    fc.assert(
      fc.property(broken, (text) => {
        const expected = v8Offset(text);
        if (expected === undefined) return;
        const ours = jsonErrorOffset(text);
        expect(ours).toBeGreaterThanOrEqual(0);
        expect(ours).toBeLessThanOrEqual(text.length);
        if (expected >= 0) expect(ours).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it("points at the culprit when V8 only quotes the text", () => {
    expect(jsonErrorOffset('{"a": tru}')).toBe(9);
    expect(jsonErrorOffset("[1, 2] x")).toBe(7);
    expect(jsonErrorOffset('{"a": "\\q"}')).toBe(8);
    expect(jsonErrorOffset('{"a": 1')).toBe(7);
  });
});
