/**
 * How many records a run's history window moves by: once a run has more
 * than twice this many, the oldest whole blocks of this size leave the
 * state (they stay in the thread's checkpoints). A leaf of its own so the
 * history store, loaded on demand, does not pull the graph's state in.
 */
export const HISTORY_WINDOW = 256;
