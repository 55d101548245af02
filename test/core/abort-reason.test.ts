import { describe, expect, it } from "vitest";
import { abortReasonText } from "../../src/core/abort-reason.js";

const aborted = (reason?: unknown) => {
  const controller = new AbortController();
  if (reason === undefined) controller.abort();
  else controller.abort(reason);
  return controller.signal;
};

describe("abortReasonText", () => {
  it("names an Error reason with its message, or alone without one", () => {
    expect(abortReasonText(aborted(new TypeError("user left")))).toBe("TypeError: user left");
    expect(abortReasonText(aborted(new RangeError()))).toBe("RangeError");
  });
  it("writes other reasons as text and the default abort as DOMException", () => {
    expect(abortReasonText(aborted("shutting down"))).toBe("shutting down");
    expect(abortReasonText(aborted(42))).toBe("42");
    expect(abortReasonText(aborted())).toBe("AbortError: This operation was aborted");
  });
  it("falls back when there is no signal or no reason", () => {
    expect(abortReasonText(undefined)).toBe("aborted");
    expect(abortReasonText(undefined, "signal aborted")).toBe("signal aborted");
    expect(abortReasonText(new AbortController().signal, "signal aborted")).toBe("signal aborted");
  });
});
