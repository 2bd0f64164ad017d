/**
 * Keys one client may submit per fixed window (push, Add Keys, import): a flood of submissions would
 * otherwise turn into a flood of upstream checks. In memory; a restart forgets the counts.
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
    if (window === undefined || now - window.start >= this.#windowMs) {
      if (this.#windows.size > 10_000) this.#prune(now);
      window = { start: now, used: 0 };
      this.#windows.set(client, window);
    }
    if (window.used + n > this.#limit) {
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((window.start + this.#windowMs - now) / 1000)) };
    }
    window.used += n;
    return { ok: true };
  }

  #prune(now: number): void {
    for (const [client, w] of this.#windows) {
      if (now - w.start >= this.#windowMs) this.#windows.delete(client);
    }
  }
}
