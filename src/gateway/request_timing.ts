/**
 * Where one request's time went: how long the gateway waited on upstreams and when its first byte left.
 * The HTTP layer creates it when a request arrives; attempts mark the intervals they wait on an upstream
 * (headers, a whole answer, a stream's first content). Overlapping waits (fusion runs several upstream
 * calls at once) count once: the wait is wall-clock time during which at least one upstream call was
 * pending, so the overhead (elapsed minus wait) never goes below the gateway's own work.
 */
export class RequestTiming {
  /** A monotonic clock in milliseconds (performance.now), passed in by the composition root. */
  readonly clock: () => number;
  /** When the HTTP layer received the request, on `clock`. */
  readonly receivedAt: number;
  /** Milliseconds spent waiting on upstreams so far. */
  upstreamMs = 0;
  /** Milliseconds from arrival to the first byte of the answer (or the error); -1 until then. */
  firstByteMs = -1;
  /** The gateway's own time up to the first byte: firstByteMs minus upstream waits; -1 until then. */
  overheadMs = -1;
  #pending = 0;
  #since = 0;
  #calledUpstream = false;
  #onUpstreamCall: (() => void)[] = [];

  constructor(clock: () => number) {
    this.clock = clock;
    this.receivedAt = clock();
  }

  /** An upstream call starts waiting (headers, body or a stream read). */
  waitStart(): void {
    if (this.#pending++ === 0) this.#since = this.clock();
    if (!this.#calledUpstream) {
      this.#calledUpstream = true;
      for (const listener of this.#onUpstreamCall.splice(0)) listener();
    }
  }

  /**
   * Calls `listener` once the first upstream wait starts (at once if one has): the request's body has
   * then been encoded and handed to the connection (the HTTP layer's body lane waits for this).
   */
  onUpstreamCall(listener: () => void): void {
    if (this.#calledUpstream) listener();
    else this.#onUpstreamCall.push(listener);
  }

  /** The wait started by the matching waitStart is over. */
  waitEnd(): void {
    if (this.#pending === 0) return;
    if (--this.#pending === 0) this.upstreamMs += this.clock() - this.#since;
  }

  /** Waits for `promise` as an upstream wait. */
  async waitFor<T>(promise: Promise<T>): Promise<T> {
    this.waitStart();
    try {
      return await promise;
    } finally {
      this.waitEnd();
    }
  }

  /** The answer's first byte is ready: fixes firstByteMs and overheadMs (first call wins). */
  firstByte(): void {
    if (this.firstByteMs >= 0) return;
    const now = this.clock();
    this.firstByteMs = now - this.receivedAt;
    this.overheadMs = this.#overheadAt(now);
  }

  /** Elapsed time minus upstream waits, as of now (a wait still pending counts up to now). */
  overheadNow(): number {
    return this.#overheadAt(this.clock());
  }

  #overheadAt(now: number): number {
    const waiting = this.#pending > 0 ? now - this.#since : 0;
    return Math.max(0, now - this.receivedAt - this.upstreamMs - waiting);
  }
}
