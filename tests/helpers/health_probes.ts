/**
 * Ordering probes for "a slow count does not hold up other requests". The gateway runs in the test's own
 * process, so a count that blocked the event loop would also stall these probes: the probes prove
 * something only when they start after the count itself has started (not while its body is still being
 * uploaded, when any gateway answers health checks) and several of them complete before the count does.
 */

/** What the probes need of the gateway's token counter. */
export interface StartedCounter {
  /** Counts handed to the counting thread so far. */
  readonly started: number;
}

/**
 * Waits until `counter` has started one more count than it had when called, then sends GET /v1/health
 * one after another until `slow` settles (at most `cap` answers). Returns how many health answers came
 * back before `slow` settled. Throws when `slow` settles before the counter started a count: the count
 * was then not done by the counter at all.
 */
export async function healthAnswersDuringCount(
  url: string,
  counter: StartedCounter,
  slow: Promise<unknown>,
  cap = 20,
): Promise<number> {
  const before = counter.started;
  let settled = false;
  const done = slow.finally(() => (settled = true));
  // Polled on timers: while a blocking count held the loop, this could not run either.
  while (counter.started === before) {
    if (settled) {
      await done;
      throw new Error("the count finished without going through the token counter");
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  let answered = 0;
  while (!settled && answered < cap) {
    const health = await fetch(`${url}/v1/health`);
    await health.body?.cancel();
    if (health.status === 200 && !settled) answered++;
  }
  await done;
  return answered;
}
