/** How often deadlines are checked; upstream timeouts are seconds long, so this is precise enough. */
export const WATCHDOG_TICK_MS = 100;

/** One watched call: aborted once `deadline` (epoch ms) passes without being pushed back. */
export interface Deadline {
  deadline: number;
  readonly onExpire: () => void;
  /** When to run `onLongRunning` (epoch ms; 0 once it ran or when there is none). */
  longRunningAt: number;
  /** Run once by the first tick at or after `longRunningAt`, if the call is still watched. */
  readonly onLongRunning?: () => void;
}

/**
 * One timer for every upstream call instead of a timer per call and a new one per streamed chunk: a
 * call registers a deadline, moves it forward as bytes arrive (a plain assignment), and is expired by
 * the next tick after it passes. The timer stops at the first tick that finds nothing watched (not on
 * every unwatch: a timer per request would cost more than the ticks it saves).
 */
export class DeadlineWatchdog {
  readonly #watched = new Set<Deadline>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * Starts watching; the caller updates `deadline` and must call `unwatch` when done. `longRunning`
   * runs work that only calls lasting longer than `afterMs` need.
   */
  watch(
    deadline: number,
    onExpire: () => void,
    longRunning?: { readonly afterMs: number; readonly run: () => void },
  ): Deadline {
    const entry: Deadline = {
      deadline,
      onExpire,
      longRunningAt: longRunning ? Date.now() + longRunning.afterMs : 0,
      onLongRunning: longRunning?.run,
    };
    this.#watched.add(entry);
    if (this.#timer === undefined) {
      const timer = setInterval(() => this.#tick(), WATCHDOG_TICK_MS);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
    return entry;
  }

  /** Stops watching an entry. */
  unwatch(entry: Deadline): void {
    this.#watched.delete(entry);
  }

  #tick(): void {
    if (this.#watched.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = Date.now();
    for (const entry of this.#watched) {
      if (entry.longRunningAt !== 0 && entry.longRunningAt <= now) {
        entry.longRunningAt = 0;
        entry.onLongRunning?.();
      }
      if (entry.deadline > now) continue;
      this.unwatch(entry);
      entry.onExpire();
    }
  }
}

/** The process-wide watchdog of upstream calls. */
export const upstreamWatchdog = new DeadlineWatchdog();
