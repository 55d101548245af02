/**
 * Bad input is refused at the door (issue 11, §4): every case here was
 * accepted, planned as "no plan" or crashed deep inside before.
 */
import { describe, expect, it } from "vitest";
import {
  ActionSpec,
  applyFactBounds,
  GoalSpec,
  loadDomain,
  MAX_ACTION_COST,
  MAX_NESTING_DEPTH,
  normalizeConditions,
  parseDataText,
  satisfiesConditions,
  unsatisfiedKeys,
} from "../../src/core/index.js";
import { plan, planDetailed } from "../../src/planner/index.js";
import { errorOf } from "./support.js";

const ONE_ACTION = '"actions": [{ "name": "finish", "effects": { "done": true } }]';

describe("a .json domain is strict JSON", () => {
  it.each([
    ["a trailing comma", `{ ${ONE_ACTION}, }`, 1, ONE_ACTION.length + 5],
    ["a comment", `{ // the domain\n ${ONE_ACTION} }`, 1, 3],
    ["single quotes", `{ 'actions': [] }`, 1, 3],
    ["a bare word", `{\n  "actions": [{ "name": finish }] }`, 2, 26],
  ])("refuses %s with the line and column", (_, text, line, column) => {
    const e = errorOf(() => loadDomain(text, { sourceName: "domain.json" }));
    expect(e.code).toBe("INVALID_DOMAIN");
    expect(e.message).toMatch(new RegExp(`^domain\\.json: not valid JSON \\(line ${line}, column ${column}\\): `));
    expect(e.details).toMatchObject({ line, column, reason: "invalid_json" });
    expect(e.message).not.toContain("is not valid JSON");
  });

  it("still reads the same text as YAML when the file says .yaml", () => {
    expect(loadDomain(`{ ${ONE_ACTION}, }`, { sourceName: "domain.yaml" }).actions.map((a) => a.name)).toEqual(["finish"]);
  });

  it("parses .json with JSON.parse, not the YAML parser (YAML-only syntax is refused)", () => {
    const e = errorOf(() => loadDomain("actions:\n  - name: finish\n", { format: "json" }));
    expect(e.message).toBe("not valid JSON (line 1, column 1): Unexpected token 'a'");
  });
});

describe("YAML", () => {
  it("refuses an unknown tag instead of warning", () => {
    const e = errorOf(() => loadDomain("actions:\n  - name: !foo finish\n", { sourceName: "d.yaml" }));
    expect(e.code).toBe("INVALID_DOMAIN");
    expect(e.message).toBe("d.yaml: not valid YAML (line 2, column 11): Unresolved tag: !foo [TAG_RESOLVE_FAILED]");
  });

  it("refuses tags that build non-JSON values (!!set, !!binary)", () => {
    expect(errorOf(() => loadDomain("actions:\n  - name: a\n    metadata: { s: !!set { x } }\n")).message).toBe(
      "$.actions[0].metadata.s: expected JSON data, got a Set",
    );
    expect(errorOf(() => loadDomain("actions:\n  - name: a\n    metadata: { b: !!binary aGk= }\n")).message).toMatch(
      /^\$\.actions\[0\]\.metadata\.b: expected JSON data, got a (Buffer|Uint8Array)$/,
    );
  });
});

describe("declared min/max", () => {
  const domain = (patch: Record<string, unknown>) => ({
    facts: { hp: { type: "number", min: 0, max: 10 } },
    state: { hp: 5 },
    actions: [{ name: "heal", effects: { hp: { inc: 3 } } }],
    ...patch,
  });

  it("are enforced in the state", () => {
    const e = errorOf(() => loadDomain(domain({ state: { hp: 50 } })));
    expect(e.message).toBe('$.state.hp (state): fact "hp" must be within [0, 10] (declared bounds), got 50');
    expect(e.details).toMatchObject({ key: "hp", value: 50, min: 0, max: 10 });
  });

  it("are enforced in goals: values out of range and comparisons that can never hold", () => {
    expect(errorOf(() => loadDomain(domain({ goal: { hp: 50 } }))).message).toBe(
      '$.goal.hp (goal): fact "hp" must be within [0, 10] (declared bounds), got 50',
    );
    expect(errorOf(() => loadDomain(domain({ goal: { conditions: { hp: { gte: 11 } } } }))).message).toBe(
      '$.goal.conditions.hp (goal): "hp >= 11" can never hold: fact "hp" is declared within [0, 10]',
    );
    expect(errorOf(() => loadDomain(domain({ goal: { hp: { in: [3, -1] } } }))).message).toContain("got -1");
    expect(loadDomain(domain({ goal: { hp: { ne: 99 } } })).goal?.conditions).toEqual({ hp: { ne: 99 } });
  });

  it("are enforced in effects: static values are refused, inc/dec cannot push a fact out", () => {
    const set = errorOf(() => loadDomain(domain({ actions: [{ name: "overheal", effects: { hp: { set: 12 } } }] })));
    expect(set.message).toBe(
      '$.actions[0].effects.hp (action "overheal" effects): fact "hp" must be within [0, 10] (declared bounds), got 12',
    );
    const { actions, state } = loadDomain(domain({ goal: { hp: 10 } }));
    expect(actions[0]?.preconditions).toEqual({ hp: { lte: 7 } });
    // From 5, heal (+3) reaches 8, and a second heal would pass 10: no plan instead of a plan through 11.
    expect(plan(state, { hp: 10 }, actions)).toBeNull();
    expect(plan(state, { hp: 8 }, actions)?.actionNames).toEqual(["heal"]);
    expect(plan({ hp: 2 }, { hp: { gte: 8 } }, actions)?.actionNames).toEqual(["heal", "heal"]);
  });

  it("tighten existing preconditions and guard function effects", () => {
    const facts = { hp: { type: "number" as const, min: 0 } };
    const [hit] = applyFactBounds(
      [new ActionSpec({ name: "hit", preconditions: { hp: { gte: 1, lt: 9 } }, effects: { hp: { dec: 2 } } })],
      facts,
    );
    expect(hit?.preconditions).toEqual({ hp: { gte: 2, lt: 9 } });
    const [drain] = applyFactBounds(
      [new ActionSpec({ name: "drain", effects: (s) => ({ hp: (s.hp as number) - 5 }), effectKeys: ["hp"] })],
      facts,
    );
    expect(drain?.apply({ hp: 7 }).hp).toBe(2);
    const e = errorOf(() => drain?.apply({ hp: 3 }));
    expect(e.code).toBe("INVALID_EFFECT");
    expect(e.message).toBe(
      'action "drain": effect function broke a declared bound: fact "hp" must be at least 0 (declared bounds), got -2',
    );
  });

  it("must be consistent themselves", () => {
    expect(errorOf(() => loadDomain(domain({ facts: { hp: { type: "number", min: 5, max: 1 } } }))).message).toBe(
      "$.facts.hp.min: min is greater than max",
    );
  });
});

describe("facts are own properties only", () => {
  const act = new ActionSpec({ name: "act", effects: { done: true } });

  it("an inherited member never satisfies a condition", () => {
    expect(satisfiesConditions({}, { toString: { ne: false } })).toBe(false);
    expect(unsatisfiedKeys({}, { valueOf: { ne: null }, hasOwnProperty: { ne: 1 } })).toEqual(["valueOf", "hasOwnProperty"]);
    expect(new GoalSpec({ conditions: { toString: { ne: false } } }).isSatisfied({})).toBe(false);
  });

  it("the planner reads no inherited member: the goal is not already satisfied", () => {
    expect(plan({}, { toString: { ne: false } }, [act])).toBeNull();
    expect(planDetailed({}, { isPrototypeOf: { ne: null } }, [act]).status).toBe("no_plan");
    const produce = new ActionSpec({ name: "produce", effects: { toString: "yes" } });
    expect(plan({}, { toString: "yes" }, [act, produce])?.actionNames).toEqual(["produce"]);
  });

  it("an effect on a key named like an inherited member starts from a missing value", () => {
    const count = new ActionSpec({ name: "count", effects: { valueOf: { inc: 1 } } });
    expect(count.apply({}).valueOf).toBe(1);
  });
});

describe("unsafe names", () => {
  it.each(["__proto__", "constructor", "prototype"])("refuses %s as a fact name everywhere", (name) => {
    const reserved = `fact name "${name}" is reserved (__proto__, constructor, prototype are never names)`;
    const conditions = JSON.parse(`{"${name}": {"ne": null}}`);
    expect(errorOf(() => normalizeConditions(conditions, "goal conditions")).message).toBe(`goal conditions: ${reserved}`);
    expect(errorOf(() => new GoalSpec({ conditions })).code).toBe("INVALID_CONDITION");
    expect(errorOf(() => plan({}, conditions, [new ActionSpec({ name: "a" })])).code).toBe("INVALID_CONDITION");
    expect(errorOf(() => new ActionSpec({ name: "a", effects: JSON.parse(`{"${name}": true}`) })).code).toBe("INVALID_EFFECT");
    expect(errorOf(() => new ActionSpec({ name: "a", effects: () => ({}), effectKeys: [name] })).code).toBe("INVALID_ACTION");
    const fromJson = errorOf(() => loadDomain(`{ "goal": { "${name}": { "ne": null } }, ${ONE_ACTION} }`, { sourceName: "d.json" }));
    expect(fromJson.message).toBe(`d.json: $.goal: ${reserved}`);
    const objectForm = errorOf(() => loadDomain(`{ "goal": { "conditions": { "${name}": 1 } }, ${ONE_ACTION} }`));
    expect(objectForm.message).toBe(`$.goal.conditions: ${reserved}`);
    expect(errorOf(() => loadDomain(`state: { ${name}: 1 }\nactions: [{ name: a }]`)).message).toBe(`$.state: ${reserved}`);
    expect(errorOf(() => loadDomain({ facts: { [name]: { type: "number" } }, actions: [{ name: "a" }] })).message).toContain(reserved);
  });

  it("keeps __proto__ from vanishing: a goal of only __proto__ is refused, not emptied", () => {
    const yaml = errorOf(() => loadDomain("goal: { __proto__: { x: true } }\nactions: [{ name: a, effects: { x: true } }]\n"));
    expect(yaml.message).toContain('fact name "__proto__" is reserved');
    // An object literal's __proto__ sets the prototype: the conditions object is not plain, so it is refused too.
    const literal = errorOf(() => new GoalSpec({ conditions: { __proto__: { x: true } } as never }));
    expect(literal.message).toBe(
      "goal conditions: expected an object of conditions, got an object with a prototype (a class instance or a __proto__ literal)",
    );
  });

  it.each([
    ["a zero-width space", "chop\u200b", "U+200B at index 4"],
    ["a right-to-left override", "chop\u202e", "U+202E at index 4"],
    ["a NUL", "chop\u0000", "U+0000 at index 4"],
    ["an escape character", "\u001b[2Jchop", "U+001B at index 0"],
    ["a bidi isolate", "\u2066chop", "U+2066 at index 0"],
    ["a lone surrogate", "chop\ud800", "U+D800 at index 4"],
  ])("refuses %s in action and fact names", (_, name, where) => {
    const action = errorOf(() => new ActionSpec({ name }));
    expect(action.code).toBe("INVALID_ACTION");
    expect(action.message).toBe(`ActionSpec: name ${JSON.stringify(name)} holds the invisible or control character ${where}`);
    const fact = errorOf(() => new ActionSpec({ name: "a", preconditions: { [name]: true } }));
    expect(fact.code).toBe("INVALID_CONDITION");
    expect(fact.message).toContain(`holds the invisible or control character ${where}`);
  });

  it.each([
    ["a no-break space", "bois\u00a0coupé", "holds the blank character U+00A0 at index 4"],
    ["a hair space", "bois\u200acoupé", "holds the blank character U+200A at index 4"],
    ["an ideographic space", "\u3000", "holds the blank character U+3000 at index 0"],
    ["a Braille blank", "\u2800", "holds the blank character U+2800 at index 0"],
    ["a musical null notehead", "x\u{1d159}", "holds the blank character U+1D159 at index 1"],
    ["a Hangul filler", "\u3164", "holds the invisible or control character U+3164 at index 0"],
    ["only ASCII spaces", "   ", "is blank"],
    ["a trailing space", "wood ", "starts or ends with a space"],
    ["a leading space", " wood", "starts or ends with a space"],
  ])("refuses a name with %s: it renders blank or like another name", (_, name, reason) => {
    const fact = errorOf(() => new ActionSpec({ name: "a", preconditions: { [name]: true } }));
    expect(fact.code).toBe("INVALID_CONDITION");
    expect(fact.message).toContain(`fact name ${JSON.stringify(name)} ${reason}`);
    expect(errorOf(() => loadDomain({ state: { [name]: 1 }, actions: [{ name: "a" }] })).message).toContain(reason);
    const action = errorOf(() => new ActionSpec({ name }));
    expect(action.code).toBe("INVALID_ACTION");
  });

  it("refuses a Braille blank as an action name with its reason", () => {
    expect(errorOf(() => new ActionSpec({ name: "chop\u2800" })).message).toBe(
      'ActionSpec: name "chop\u2800" holds the blank character U+2800 at index 4 (only the ASCII space, between words)',
    );
  });

  it("refuses the empty fact name", () => {
    expect(errorOf(() => new ActionSpec({ name: "a", effects: { "": true } })).message).toBe('action "a" effects: fact name "" is empty');
    expect(errorOf(() => loadDomain({ goal: { "": true }, actions: [{ name: "a" }] })).message).toBe('$.goal: fact name "" is empty');
  });

  it("still accepts ordinary names, spaces and non-Latin letters in facts", () => {
    const a = new ActionSpec({ name: "hacher_bois", effects: { "bois coupé": true, 木: 1 } });
    expect([...a.effectKeys]).toEqual(["bois coupé", "木"]);
  });
});

describe("deep nesting", () => {
  const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

  it("valid JSON 800 levels deep is refused with the limit, not a stack overflow", () => {
    const e = errorOf(() => loadDomain(`{ "actions": [{ "name": "a", "metadata": { "x": ${nested(800)} } }] }`, { sourceName: "d.json" }));
    expect(e.code).toBe("INVALID_DOMAIN");
    // The 65th opening bracket: { of the file, [ of actions, { of the action, { of metadata, then 61 of x.
    const column = '{ "actions": [{ "name": "a", "metadata": { "x": '.length + 61;
    expect(e.message).toBe(
      `d.json: JSON (line 1, column ${column}) nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep; the limit is 64 (MAX_NESTING_DEPTH)`,
    );
    expect(e.details.limit).toBe(64);
  });

  it("deep YAML and deep objects are refused the same way", () => {
    expect(errorOf(() => loadDomain(`actions: [{ name: a, metadata: { x: ${nested(800)} } }]`, { format: "yaml" })).message).toBe(
      "$.actions[0].metadata.x[0][0][0][0][0][0][0][0][0][0][0][0][… nests objects and arrays more than 64 levels deep; the limit is 64 (MAX_NESTING_DEPTH)",
    );
    // Deeper still, the YAML parser itself runs out of stack: the same error, not "Maximum call stack size exceeded".
    expect(errorOf(() => loadDomain(`x: ${"{a: ".repeat(3000)}1${"}".repeat(3000)}`, { format: "yaml" })).message).toMatch(
      /^(YAML|\$\.x\.a.*) nests objects and arrays more than 64 levels deep; the limit is 64 \(MAX_NESTING_DEPTH\)$/,
    );
    const cyclic: Record<string, unknown> = { name: "a" };
    cyclic.metadata = { self: cyclic };
    expect(errorOf(() => loadDomain({ actions: [cyclic] })).message).toMatch(
      /^\$\.actions\[0\]\.metadata\.self\.metadata\.self.* nests objects and arrays more than 64 levels deep; the limit is 64/,
    );
    expect(parseDataText(`{"x": ${nested(60)}}`, { format: "json" })).toBeTruthy();
  });
});

describe("goal shapes", () => {
  it("conditions given as a string are bad input naming $.goal.conditions", () => {
    const e = errorOf(() => loadDomain({ goal: { conditions: "done" }, actions: [{ name: "a" }] }));
    expect(e.code).toBe("INVALID_DOMAIN");
    expect(e.message).toBe("$.goal.conditions: Invalid input: expected record, received string");
  });

  it("errors inside a nested policy name the full path", () => {
    const goal = (policy: unknown) => ({ goal: { conditions: { done: true }, policy }, ...JSON.parse(`{${ONE_ACTION}}`) });
    expect(errorOf(() => loadDomain(goal({ maxReplans: -1 }))).message).toBe(
      "$.goal.policy.maxReplans: Too small: expected number to be >=0",
    );
    expect(errorOf(() => loadDomain(goal({ replanStrategy: "sometimes" }))).details.path).toBe("$.goal.policy.replanStrategy");
    expect(errorOf(() => loadDomain(goal({ maxReplans: 1, extra: 1 }))).message).toMatch(/^\$\.goal\.policy: Unrecognized key: "extra"/);
  });
});

describe("costs that could overflow a plan's total", () => {
  it("two actions of cost 1e308 are refused when loaded, naming the action and the limit", () => {
    const e = errorOf(() =>
      loadDomain({
        goal: { b: true },
        actions: [
          { name: "a", effects: { a: true }, cost: 1 },
          { name: "huge", preconditions: { a: true }, effects: { b: true }, cost: 1e308 },
        ],
      }),
    );
    expect(e.code).toBe("INVALID_DOMAIN");
    expect(e.message).toBe(
      '$.actions[1]: action "huge": cost 1e+308 exceeds the limit of 1000000000000 (MAX_ACTION_COST), above which a plan\'s total cost could overflow',
    );
    expect(e.details).toMatchObject({ action: "huge", limit: MAX_ACTION_COST });
  });

  it("the same limit holds when an action is built, and for cost functions", () => {
    expect(errorOf(() => new ActionSpec({ name: "huge", cost: 1e13 })).details).toMatchObject({ action: "huge", limit: 1e12 });
    expect(new ActionSpec({ name: "max", cost: MAX_ACTION_COST }).getCost()).toBe(1e12);
    const dynamic = new ActionSpec({ name: "dyn", cost: () => 1e308 });
    expect(errorOf(() => dynamic.getCost({})).message).toBe(
      'action "dyn": cost function returned 1e+308; expected a number from 0 to 1000000000000 (MAX_ACTION_COST)',
    );
  });
});
