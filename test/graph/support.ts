import type { GoapLogger } from "../../src/graph/index.js";

/** A logger that records messages instead of printing them. */
export function quietLogger(): GoapLogger & { readonly messages: string[] } {
  const messages: string[] = [];
  const push = (m: string) => {
    messages.push(m);
  };
  return { messages, debug: push, info: push, warn: push, error: push };
}
