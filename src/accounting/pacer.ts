/** When a long count pauses, and how: `due()` is asked after every piece, `pause()` awaited when true. */
export interface Pacer {
  due(): boolean;
  pause(): Promise<void>;
}

/** Longest run of tokenizing between two turns of the event loop, in milliseconds. */
export const SLICE_MS = 1;

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
 * Resolves on a later turn of the event loop, after pending I/O callbacks have run. A resolved promise
 * would not do (microtasks run before any I/O), and a zero timer is clamped to about 4 ms once timers
 * nest, which would add seconds to a long count; a message on a fresh channel costs about 50 µs.
 */
export function nextTurn(): Promise<void> {
  const channel = new MessageChannel();
  return new Promise<void>((resolve) => {
    channel.port1.onmessage = () => {
      channel.port1.close();
      channel.port2.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
