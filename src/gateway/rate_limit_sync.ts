/**
 * Shares rate limits between the processes on one database (`serve --workers N`, instances on one
 * PostgreSQL): every tick each process reads the others' rows of `rate_counts`, lets its RateLimiter take
 * them in and recompute its shares, and writes its own changed rows. Requests never wait for the database;
 * a request refused only for want of this process's share (`waitForSync`) may wait for the next tick.
 */
import type { RateLimiter, RateLimits } from "../accounting/mod.ts";
import type { RateCountsRepo } from "../storage/mod.ts";
import { log } from "../log.ts";
import { CLUSTER_TICK_MS } from "./cluster_sync.ts";

/**
 * Rows are read again this far back: their times come from each writer's clock, and re-reading a row
 * costs nothing (counts are cumulative), while a row skipped because of clock skew would be lost.
 */
const READ_MARGIN_MS = 2_000;
/** Rows not refreshed for this long are deleted (their process is gone, or the key idle). */
const PRUNE_AFTER_MS = 120_000;

/** What the sync needs from the running gateway. */
export interface RateLimitSyncDeps {
  readonly limiter: RateLimiter;
  readonly repo: RateCountsRepo;
  /** This process's id in the rows it writes (ClusterSync.origin). */
  readonly origin: string;
  /** How many processes share the database, this one included (ClusterSync.peers + 1). */
  readonly processes: () => number;
  /** A key's effective limits by scope, or null when the key is gone. */
  readonly limitsOf: (scope: string) => RateLimits | null;
  readonly now: () => number;
}

/** The tick that keeps one process's RateLimiter in step with the others'. */
export class RateLimitSync {
  readonly #deps: RateLimitSyncDeps;
  #lastRead = -Infinity;
  #lastPrune = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #waiters: (() => void)[] = [];
  #failing = false;

  constructor(deps: RateLimitSyncDeps) {
    this.#deps = deps;
  }

  /** Starts ticking every CLUSTER_TICK_MS. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.tick(), CLUSTER_TICK_MS);
    Deno.unrefTimer(this.#timer);
  }

  /** One exchange: read the others, sync, publish. Public for tests; errors are logged once per outage. */
  tick(): void {
    const d = this.#deps;
    try {
      const now = d.now();
      const processes = d.processes();
      // Alone, nothing is read or written: the limiter decides from its own counts.
      // The first read takes every row there is (0: PostgreSQL binds no infinity to a BIGINT).
      const since = Number.isFinite(this.#lastRead) ? this.#lastRead - READ_MARGIN_MS : 0;
      const others = processes > 1 ? d.repo.others(d.origin, since) : [];
      this.#lastRead = now;
      const rows = d.limiter.sync(d.origin, others, processes, d.limitsOf, now);
      if (rows.length > 0) d.repo.publish(rows);
      if (processes > 1 && now - this.#lastPrune >= PRUNE_AFTER_MS / 4) {
        this.#lastPrune = now;
        d.repo.prune(now - PRUNE_AFTER_MS);
      }
      if (this.#failing) log("info", "rate limit sync works again");
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) {
        log("warn", `rate limit sync failed (retrying every tick): ${(error as Error).message}`);
      }
      this.#failing = true;
    } finally {
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Resolves after the next tick (a request refused with waitForSync asks again then). */
  nextTick(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Stops ticking and removes this process's rows, so the others stop counting its shares at once. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const wake of this.#waiters.splice(0)) wake();
    try {
      this.#deps.repo.leave(this.#deps.origin);
    } catch { /* the database is closing */ }
  }
}
