/**
 * The pure-JS SHA-256 behind goal hashes must give the bytes
 * `createHash("sha256")` gives, on every input: goal hashes are persisted in
 * history stores, so a differing digest would orphan every stored record.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/core/sha256.js";
import { computeGoalHash } from "../../src/graph/index.js";

const node = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

describe("sha256Hex", () => {
  it("matches the published test vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("matches node:crypto at every length around the 64-byte block and 56-byte padding edges", () => {
    for (let n = 0; n <= 300; n++) {
      const text = "x".repeat(n);
      expect(sha256Hex(text), `length ${n}`).toBe(node(text));
    }
  });

  it("hashes text as UTF-8 like node:crypto: accents, CJK, emoji, lone surrogates, NUL", () => {
    for (const text of ["héllo wörld", "計画を立てる", "🔥🪓🌲", "a\u0000b", "\ud800", "x\udc00y", "\ud83d", "\u2028\u2029", "﻿bom"]) {
      expect(sha256Hex(text), JSON.stringify(text)).toBe(node(text));
    }
  });

  it("matches node:crypto on long text (1 MB) and on bytes", () => {
    const long = "goal:".repeat(200_000);
    expect(sha256Hex(long)).toBe(node(long));
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff);
    expect(sha256Hex(bytes)).toBe(node(bytes));
  });

  it("matches node:crypto on 500 generated strings of any code units", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => sha256Hex(text) === node(text)),
      { numRuns: 500, seed: 22 },
    );
  });

  it("keeps computeGoalHash byte-identical to the node:crypto version it replaced", () => {
    const goal = { wörld: { gte: 3 }, "🔥": true, a: { in: ["x", null, 1.5] } };
    const canonical = JSON.stringify({ a: { in: ["x", null, 1.5] }, wörld: { gte: 3 }, "🔥": true });
    expect(computeGoalHash(goal)).toBe(node(canonical).slice(0, 16));
    expect(computeGoalHash({ warm: true })).toBe(node('{"warm":true}').slice(0, 16));
  });
});
