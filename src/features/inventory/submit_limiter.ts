/**
 * Keys one client may submit per fixed window (push, Add Keys and import share it): a flood of submissions
 * would otherwise turn into a flood of upstream checks. In memory; a restart forgets the counts.
 *
 * A single submission larger than the whole budget (an import of a big export) is let through when the
 * client has nothing counted, and then blocks that client for as many windows as it filled: the average
 * rate stays at `limit` keys per window, and a large export can still round-trip.
 */
export class SubmitLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #windows = new Map<string, { start: number; used: number }>();

  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Counts `n` keys for a client; the seconds to wait when that would pass the limit (nothing counted). */
  take(client: string, n: number, now: number): { ok: true } | { ok: false; retryAfterS: number } {
    let window = this.#windows.get(client);
    if (window === undefined || now >= this.#end(window)) {
      if (this.#windows.size > 10_000) this.#prune(now);
      window = { start: now, used: 0 };
      this.#windows.set(client, window);
    }
    if (window.used > 0 && window.used + n > this.#limit) {
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((this.#end(window) - now) / 1000)) };
    }
    window.used += n;
    return { ok: true };
  }

  /** When a window ends: one window, or as many as an oversized submission filled. */
  #end(window: { start: number; used: number }): number {
    return window.start + this.#windowMs * Math.max(1, Math.ceil(window.used / this.#limit));
  }

  #prune(now: number): void {
    for (const [client, w] of this.#windows) {
      if (now >= this.#end(w)) this.#windows.delete(client);
    }
  }
}
