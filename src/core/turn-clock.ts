/**
 * @internal How long the current turn of the event loop has run, as far as
 * langgoap's code has seen it. Each sliced loop (planning's setup and
 * search, checking and copying world states) used to start its own budget
 * of a few milliseconds when it was called, so several of them in a row in
 * one turn (a graph run: copy the input, check it, check it again in the
 * planner node, validate the actions, ...) added up to one long pause. They
 * measure from the turn's start instead: the first time any of them asks
 * in a turn. An immediate queued then marks the turn's end (it runs once
 * the turn's code and microtasks are done), so the next question starts
 * the next turn. A turn that langgoap's own yield resumes starts at the
 * resume: the code that runs after it without asking (LangGraph's run
 * loop starting a run or moving between nodes: 13 ms on a process's first
 * run) counts, and the next sliced step yields at once instead of adding
 * its slice to it (a graph run over 10,000 facts paused the event loop for
 * 26-28 ms that way).
 */

import { SLICE_MAX_MS, sharedSliceLength } from "./slice-length.js";

let startedAt = 0;
let known = false;
/** True while the current turn is one {@link nextTurn} resumed: its code runs in Node's check phase. */
let resumed = false;

const forget = (): void => {
  known = false;
  resumed = false;
};

const queueTurnEnd: (callback: () => void) => void =
  typeof setImmediate === "function" ? (callback) => setImmediate(callback) : (callback) => setTimeout(callback, 0);

/** `performance.now()` when this turn began: when {@link nextTurn} resumed it, else as first seen by a caller in it. */
export function turnStartedAt(): number {
  if (!known) startTurn();
  return startedAt;
}

function startTurn(): void {
  known = true;
  startedAt = performance.now();
  queueTurnEnd(forget);
}

/**
 * Node runs an immediate in the check phase of the loop's current pass when
 * it is queued from a timer or an I/O callback (a request handler, a module's
 * top level): one hop from there skips the timers and the I/O polled at the
 * start of the next pass, and the first yield of a graph run started that way
 * let nothing run (two slices and a compile, 25 ms, in one pause). From a
 * turn one of our own immediates resumed, one hop is a whole pass.
 */
const hopsOutOf = (): number => ((known && resumed) || typeof setImmediate !== "function" ? 1 : 2);

/** A turn of the event loop: timers and I/O run before the caller goes on. */
export function nextTurn(): Promise<void> {
  const hops = hopsOutOf();
  return new Promise<void>((resolve) => {
    const resume = (): void => {
      startTurn();
      resumed = true;
      resolve();
    };
    queueTurnEnd(hops === 1 ? resume : () => queueTurnEnd(resume));
  });
}

/** Longest stretch of langgoap's sliced work in one turn of the event loop, in ms. */
export const TURN_SLICE_MS = SLICE_MAX_MS;

/**
 * This turn's share for sliced work, in ms: {@link TURN_SLICE_MS}, shorter
 * while the machine's cores are busy (see `slice-length.ts`; planning's
 * slices measure it, the loops that only check or copy follow it).
 */
export function turnSliceMs(): number {
  return Math.min(TURN_SLICE_MS, sharedSliceLength.ms);
}

/** Gives the event loop a turn when this turn has run {@link turnSliceMs} or more; else resolves at once (a microtask). */
export async function pauseIfTurnLong(sliceMs = turnSliceMs()): Promise<void> {
  if (performance.now() - turnStartedAt() >= sliceMs) await nextTurn();
}
