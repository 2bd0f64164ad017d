import { nextTurn } from "../next_turn.ts";

/** When a long count pauses, and how: `due()` is asked after every piece, `pause()` awaited when true. */
export interface Pacer {
  due(): boolean;
  pause(): Promise<void>;
}

/**
 * Tokenizing between two turns of the event loop, in milliseconds; a slice ends after the piece that
 * passes it, so it can run over by one piece (under 1 ms).
 */
export const SLICE_MS = 1.5;

/**
 * A pacer that pauses after `sliceMs` of work. Time, not characters: tokenizing prose costs about
 * 60 ns a character and a run with no word the tokenizer knows about 3 µs, so no character count fits
 * both. `now` is a monotonic clock in milliseconds.
 */
export function timePacer(now: () => number = () => performance.now(), sliceMs = SLICE_MS): Pacer {
  let sliceStart = now();
  return {
    due: () => now() - sliceStart >= sliceMs,
    pause: async () => {
      await nextTurn();
      sliceStart = now();
    },
  };
}
