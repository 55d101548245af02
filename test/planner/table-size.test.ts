import { describe, expect, it } from "vitest";
import { JUMP_AT, nextTableSize } from "../../src/planner/search-setup.js";

describe("nextTableSize", () => {
  it("doubles while small, then jumps to the node budget's size at half the node arrays' jump point", () => {
    expect(nextTableSize(1024, 600, 1_000_000)).toBe(2048);
    expect(nextTableSize(JUMP_AT / 2, JUMP_AT / 2 - 1, 1_000_000)).toBe(JUMP_AT);
    // At JUMP_AT / 2 nodes the table is sized for the whole budget (two slots per node), not for JUMP_AT nodes as the
    // node arrays jump later: the two one-off pauses land in different slices.
    expect(nextTableSize(JUMP_AT, JUMP_AT / 2, 1_000_000)).toBe(2_097_152);
    expect(nextTableSize(JUMP_AT, JUMP_AT / 2, Number.POSITIVE_INFINITY)).toBe(2 * JUMP_AT);
  });
});
