import { afterEach, describe, expect, it, vi } from "vitest";
import { ActionSpec, CONSOLE_LOGGER, getLogLevel, LangGoapError, setLogLevel } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";

afterEach(() => {
  setLogLevel("warn");
  vi.restoreAllMocks();
});

function captureConsole() {
  const lines: string[] = [];
  for (const method of ["debug", "info", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((line: unknown) => void lines.push(`${method}: ${String(line)}`));
  }
  return lines;
}

describe("setLogLevel and the default console logger", () => {
  it("drops messages below the level: warn by default, then debug, then silent", () => {
    const lines = captureConsole();
    expect(getLogLevel()).toBe("warn");
    CONSOLE_LOGGER.debug?.("d1");
    CONSOLE_LOGGER.info?.("i1");
    CONSOLE_LOGGER.warn?.("w1");
    expect(setLogLevel("debug")).toBe("warn");
    CONSOLE_LOGGER.debug?.("d2");
    CONSOLE_LOGGER.info?.("i2");
    setLogLevel("silent");
    CONSOLE_LOGGER.error?.("e3");
    setLogLevel("error");
    CONSOLE_LOGGER.warn?.("w4");
    CONSOLE_LOGGER.error?.("e4");
    expect(lines).toEqual(["warn: [langgoap] w1", "debug: [langgoap] debug: d2", "info: [langgoap] info: i2", "error: [langgoap] e4"]);
  });

  it("governs the warnings a graph without its own logger prints", async () => {
    const lines = captureConsole();
    const broken = { record: async () => Promise.reject(new Error("disk full")) };
    const act = new ActionSpec({ name: "act", effects: { done: true } });
    await new GoapGraph([act], { history: broken }).invoke({ done: true }, {});
    expect(lines).toEqual(["warn: [langgoap] execution history could not record the run: disk full"]);
    lines.length = 0;
    setLogLevel("silent");
    await new GoapGraph([act], { history: broken }).invoke({ done: true }, {});
    expect(lines).toEqual([]);
  });

  it("refuses unknown levels, naming them", () => {
    expect(() => setLogLevel("verbose" as never)).toThrow(LangGoapError);
    expect(() => setLogLevel("verbose" as never)).toThrow('level must be "debug", "info", "warn", "error" or "silent", got "verbose"');
  });
});
