import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LangGoapError, loadDomain, plan } from "../../src/index.js";
import { loadDomainFile } from "../../src/node/index.js";

const VILLAGE = "examples/domains/village.yaml";

async function rejection(promise: Promise<unknown>): Promise<LangGoapError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LangGoapError);
  return error as LangGoapError;
}

describe("loadDomainFile", () => {
  it("reads a YAML domain file and plans it like loadDomain on its text", async () => {
    const { actions, state, goal } = await loadDomainFile(VILLAGE);
    expect(goal).toBeDefined();
    const found = plan(state, goal!, actions);
    expect(found?.actionNames.length).toBeGreaterThan(0);
    expect(actions.map((a) => a.name)).toContain("chop_wood");
  });

  it("names the file in errors, and refuses a missing file with a coded error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "langgoap-domain-file-"));
    const broken = join(dir, "broken.json");
    writeFileSync(broken, '{"actions": [],}');
    const invalid = await rejection(loadDomainFile(broken));
    expect(invalid.code).toBe("INVALID_DOMAIN");
    expect(invalid.message).toMatch(new RegExp(`^${broken.replace(/[.\\\\]/g, "\\$&")}: not valid JSON \\(line 1, column 16\\)`));
    const missing = await rejection(loadDomainFile(join(dir, "nope.yaml")));
    expect(missing.code).toBe("INVALID_DOMAIN");
    expect(missing.message).toBe(`${join(dir, "nope.yaml")}: cannot read the domain file: no such file`);
  });
});

describe("loadDomain given a file name", () => {
  it.each(["x.yaml", "examples/domains/village.yaml", "./d.json", "C:\\\\domains\\\\d.YML"])(
    "says it takes text and names loadDomainFile: %s",
    (name) => {
      const error = (() => {
        try {
          loadDomain(name);
        } catch (e) {
          return e as LangGoapError;
        }
        throw new Error("loadDomain accepted a file name");
      })();
      expect(error.code).toBe("INVALID_DOMAIN");
      expect(error.message).toBe(
        `loadDomain takes the text of a domain (or a parsed object), not a file name: got ${JSON.stringify(name)}; read the file with loadDomainFile(path) from "langgoap/node"`,
      );
    },
  );

  it("another scalar is refused as not a domain, without the file hint", () => {
    expect(() => loadDomain("hello")).toThrow(
      '$: expected a domain (a mapping with "actions", and optionally "state", "goal", "facts"), got "hello"',
    );
    expect(() => loadDomain(null)).toThrow(
      '$: expected a domain (a mapping with "actions", and optionally "state", "goal", "facts"), got null',
    );
  });
});
