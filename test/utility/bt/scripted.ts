import { ActionNode, BehaviourTree, type BtNode, type BtStatus } from "../../../src/utility/index.js";

/** A leaf that returns `script[i]` on its i-th tick (then repeats the last), and logs its lifecycle. */
export function scripted(name: string, script: readonly BtStatus[], log: string[] = []): ActionNode {
  let i = 0;
  return new ActionNode({
    name,
    enter: () => log.push(`${name} enter`),
    run: () => {
      const status = script[Math.min(i, script.length - 1)] as BtStatus;
      i++;
      log.push(`${name} ${status}`);
      return status;
    },
    exit: (reason) => log.push(`${name} exit ${reason}`),
  });
}

/** A leaf that returns the same status every tick. */
export const always = (name: string, status: BtStatus, log?: string[]) => scripted(name, [status], log);

/** The root's status over `ticks` ticks of `delta` seconds. */
export function statuses(root: BtNode, ticks: number, delta = 1, blackboard = {}): BtStatus[] {
  const tree = new BehaviourTree({ root, blackboard });
  return Array.from({ length: ticks }, () => tree.tick(delta));
}
