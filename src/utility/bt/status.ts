import type { WorldState } from "../../core/index.js";

/** What a behaviour-tree node reports on each tick. */
export type BtStatus = "success" | "failure" | "running";

/** A node's last status, or `idle` before its first tick and after an abort. */
export type BtNodeStatus = BtStatus | "idle";

/** Which user hook of a node threw or returned something invalid. */
export type BtHookName = "run" | "enter" | "exit" | "test";

/**
 * What every node receives on a tick. Time is the tree's own: the sum of the
 * `deltaSeconds` given to {@link BehaviourTree.tick}, never the wall clock,
 * so the same ticks give the same decisions on any machine.
 */
export interface BtTickContext {
  /** The live world-state facts shared by every node (own properties only). */
  readonly blackboard: WorldState;
  /** Seconds this tick advances. */
  readonly deltaSeconds: number;
  /** Tree time after this tick: the sum of every tick's `deltaSeconds`. */
  readonly time: number;
  /** This tick's number, from 1. */
  readonly tick: number;
  /**
   * Reports a failing user hook of `node` (a `BtNode`, named here only by
   * what the report reads, so this file does not import `node.ts`, which
   * imports it); the tree emits it as `hookFailed` after the tick.
   */
  report(node: { readonly name: string }, hook: BtHookName, error: unknown): void;
}

/** @internal True for the three statuses. */
export function isBtStatus(value: unknown): value is BtStatus {
  return value === "success" || value === "failure" || value === "running";
}
