/**
 * The examples gallery (docs/guide/examples.md) names every program under
 * examples/, and names none that is gone: a newcomer finds each one there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

describe("the examples gallery", () => {
  it("lists every example under examples/, and only those", () => {
    const examples = readdirSync(join(ROOT, "examples"))
      .filter((name) => name.endsWith(".ts"))
      .sort();
    const page = readFileSync(join(ROOT, "docs", "guide", "examples.md"), "utf8");
    const listed = [...new Set([...page.matchAll(/`([\w-]+\.ts)`/g)].map((m) => m[1] as string))].sort();
    expect(listed).toEqual(examples);
  });
});
