import type { ActionBehaviour, ActionOutcome } from "../agent-types.js";
import type { BtNode } from "./node.js";
import type { BtStatus, BtTickContext } from "./status.js";

const OUTCOME: Readonly<Record<BtStatus, ActionOutcome>> = { success: "done", failure: "failed", running: "running" };

/**
 * @internal A planned action played by a behaviour-tree node: each agent
 * tick of the action ticks the node with the tree's context, its status
 * becomes the action's outcome, and an interrupted action aborts it.
 */
export function leafBehaviour(leaf: BtNode, context: () => BtTickContext): ActionBehaviour {
  return {
    execute: () => OUTCOME[leaf.tick(context())],
    exit: (_ctx, reason) => {
      if (reason === "interrupted") leaf.abort();
    },
  };
}
