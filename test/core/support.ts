import { LangGoapError } from "../../src/core/index.js";

/** The LangGoapError `fn` throws; fails the test when it throws nothing or something else. */
export function errorOf(fn: () => unknown): LangGoapError {
  try {
    fn();
  } catch (e) {
    if (e instanceof LangGoapError) return e;
    throw e;
  }
  throw new Error("expected a LangGoapError");
}
