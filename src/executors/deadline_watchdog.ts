/** How often deadlines are checked; upstream timeouts are seconds long, so this is precise enough. */
export const WATCHDOG_TICK_MS = 100;

/** One watched call: aborted once `deadline` (monotonic ms, `performance.now()`) passes without being pushed back. */
export interface Deadline {
  deadline: number;
  readonly onExpire: () => void;
  /** When to run `onLongRunning` (monotonic ms; 0 once it ran or when there is none). */
  longRunningAt: number;
  /** Run once by the first tick at or after `longRunningAt`, if the call is still watched. */
  readonly onLongRunning?: () => void;
}

/**
 * One timer for every upstream call instead of a timer per call and a new one per streamed chunk: a
 * call registers a deadline, moves it forward as bytes arrive (a plain assignment), and is expired by
 * the next tick after it passes. The timer stops at the first tick that finds nothing watched (not on
 * every unwatch: a timer per request would cost more than the ticks it saves).
 *
 * Watched calls sit in a slot array whose freed slots are cleared, not in a Set. A Set's table is
 * reallocated as it grows and shrinks, and a replaced table that had reached the old generation keeps
 * pointing at the calls it held until the next full GC; every young object those calls reached (the
 * fetch, its response, its streams) then survived scavenges and was promoted. That tripled the bytes
 * promoted per request and made scavenges a tenth of the gateway's CPU under load.
 */
export class DeadlineWatchdog {
  readonly #slots: (WatchedSlot | null)[] = [];
  readonly #freeSlots: number[] = [];
  #count = 0;
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
    const slot = this.#freeSlots.pop() ?? this.#slots.length;
    const entry: WatchedSlot = {
      deadline,
      onExpire,
      longRunningAt: longRunning ? performance.now() + longRunning.afterMs : 0,
      onLongRunning: longRunning?.run,
      slot,
    };
    this.#slots[slot] = entry;
    this.#count++;
    if (this.#timer === undefined) {
      const timer = setInterval(() => this.#tick(), WATCHDOG_TICK_MS);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
    return entry;
  }

  /** Stops watching an entry (again is harmless). */
  unwatch(entry: Deadline): void {
    const watched = entry as WatchedSlot;
    if (watched.slot < 0 || this.#slots[watched.slot] !== watched) return;
    this.#slots[watched.slot] = null;
    this.#freeSlots.push(watched.slot);
    watched.slot = -1;
    this.#count--;
  }

  /** Calls being watched. */
  get size(): number {
    return this.#count;
  }

  #tick(): void {
    if (this.#count === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = performance.now();
    const slots = this.#slots;
    for (let i = 0; i < slots.length; i++) {
      const entry = slots[i];
      if (entry === null) continue;
      if (entry.longRunningAt !== 0 && entry.longRunningAt <= now) {
        entry.longRunningAt = 0;
        entry.onLongRunning?.();
      }
      if (entry.deadline > now || slots[i] !== entry) continue;
      this.unwatch(entry);
      entry.onExpire();
    }
  }
}

/** A watched deadline and the slot it holds (-1 once unwatched). */
interface WatchedSlot extends Deadline {
  slot: number;
}

/** The process-wide watchdog of upstream calls. */
export const upstreamWatchdog = new DeadlineWatchdog();
