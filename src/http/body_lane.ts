/**
 * Budgets for big request bodies. Reading, parsing, decoding and encoding a body for its upstream are
 * work whose length grows with the body (a 30 MiB body, with the parse on a worker and the reading and
 * encoding paced across turns: about 20-45 ms to receive the parsed value, a few ms a step otherwise);
 * eight such bodies at once, unbudgeted, ran their steps back to back and held health checks 0.5-3 s, and
 * the process held 1.2 GB.
 *
 * A body over BIG_BODY_BYTES takes two places before it is read (its bytes stay with the client
 * meanwhile): one in the in-flight budget (BIG_BODIES_IN_FLIGHT_BYTES), kept until its answer starts (or it fails), which
 * bounds the memory big bodies hold; and one in the lane (one maximum body), given back once the gateway
 * starts waiting on the upstream (the body has been read, parsed and encoded), so the big steps of
 * different bodies never pile into one turn of the event loop. Small bodies take neither.
 */

/** Bodies up to this size skip the budgets: their steps are short, and most requests are far smaller. */
export const BIG_BODY_BYTES = 1024 * 1024;

/**
 * Big bodies in flight at once (two maximum ones, or e.g. twenty 3 MiB screenshots); more wait, unread,
 * for one to end. Each costs about three times its size while it is being parsed and encoded, and twice
 * its size until its answer starts (the parsed request, its encoded copy until written): eight 30 MiB
 * bodies at once raised RSS by 350-400 MiB with this cap, 1.2 GB without it.
 */
export const BIG_BODIES_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/** A FIFO byte budget. */
export class BodyLane {
  readonly #budget: number;
  #inUse = 0;
  readonly #waiting: { bytes: number; admit(): void }[] = [];

  /** `budget`: bytes admitted at once (a body larger than it is admitted alone). */
  constructor(budget: number) {
    this.#budget = budget;
  }

  /** Bytes of the budget held now (tests and diagnostics). */
  get inUse(): number {
    return this.#inUse;
  }

  /**
   * Waits for `bytes` of the budget, in arrival order; resolves to the release, which may be called
   * more than once (only the first gives the bytes back).
   */
  async acquire(bytes: number): Promise<() => void> {
    const claim = Math.min(bytes, this.#budget);
    if (this.#waiting.length > 0 || this.#inUse + claim > this.#budget) {
      await new Promise<void>((admit) => this.#waiting.push({ bytes: claim, admit }));
    } else {
      this.#inUse += claim;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse -= claim;
      this.#admitWaiting();
    };
  }

  #admitWaiting(): void {
    while (this.#waiting.length > 0 && this.#inUse + this.#waiting[0].bytes <= this.#budget) {
      const next = this.#waiting.shift()!;
      this.#inUse += next.bytes;
      // On a later turn: the body that freed the lane has just taken a big step (encoding its request),
      // and reading the next one (copying its bytes in) is another.
      setTimeout(next.admit, 0);
    }
  }
}
