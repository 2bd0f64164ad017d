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

/**
 * Resolves on a later turn of the event loop, after pending network I/O has been served. A resolved
 * promise would not do (microtasks run before any I/O), nor a MessageChannel message: Deno delivers it
 * without handing control to the runtime's network tasks, and health checks starved behind a count
 * paced that way (measured). A zero timer does; it costs about 2 ms of idle time, spent on other work
 * when there is any.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
}
