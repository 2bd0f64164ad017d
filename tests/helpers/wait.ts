/**
 * Waiting on a condition instead of sleeping a fixed time: a test that sleeps "long enough" fails on a
 * busy machine, one that polls for the condition only gets slower. The deadline is generous on purpose:
 * it is only reached when the condition is really never met, and then the error names what was awaited.
 */

export interface WaitOptions {
  /** What is awaited, for the error message ("the usage row written"). */
  what: string;
  /** Deadline; 20 s unless told. */
  timeoutMs?: number;
  /** Poll interval; 10 ms unless told. */
  intervalMs?: number;
}

/** Polls `condition` until it holds; returns the ms it took. Throws naming `what` after the deadline. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  options: WaitOptions,
): Promise<number> {
  const { what, timeoutMs = 20_000, intervalMs = 10 } = options;
  const start = performance.now();
  for (;;) {
    if (await condition()) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Checks that `condition` stays false for `ms`: the one place a test must let time pass to show that
 * something does not happen. Polls, so a violation fails as soon as it shows.
 */
export async function holdsFalse(
  condition: () => boolean | Promise<boolean>,
  ms: number,
  what: string,
): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < ms) {
    if (await condition()) throw new Error(`${what} happened`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (await condition()) throw new Error(`${what} happened`);
}
