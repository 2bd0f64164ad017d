/**
 * Per-key rate limits in memory: requests per minute, tokens per minute and requests at once. Pure (the
 * instant is passed in) and O(1) per request: one Map lookup and a few numbers per key.
 *
 * Algorithm: a token bucket per key and dimension, kept as a level that drains continuously (a leaky bucket,
 * the GCRA family). A limit of N per minute holds N units and refills N per minute: a key that was quiet
 * may send N requests at once (its burst), then one every 60/N seconds. Over any span of d seconds a key is
 * admitted at most N + N·d/60. Tokens are admitted on an estimate and settled with the real usage when it
 * arrives (a refund or a further charge; the level never goes below empty). A request larger than the whole
 * limit is admitted only into an empty bucket, so a big request is slow but never impossible.
 *
 * Several processes on one database (workers, instances) share the limits through `sync`, every tick: each
 * process publishes what it admitted and takes what the others admitted into its own buckets, and between
 * ticks admits at most its share of what was left (see docs/governance.md for the bound this gives).
 */

/** Requests per minute, tokens per minute, requests at once; null is "not limited". */
export interface RateLimits {
  readonly rpm: number | null;
  readonly tpm: number | null;
  readonly maxParallel: number | null;
}

/** No limit at all. */
export const UNLIMITED: RateLimits = { rpm: null, tpm: null, maxParallel: null };

/**
 * The limits that apply to a key: its own where set, else its group's, else the global default; and never
 * looser than its group's (a key may only narrow what its group allows).
 */
export function effectiveLimits(key: RateLimits, group: RateLimits | null, defaults: RateLimits): RateLimits {
  const pick = (own: number | null, inherited: number | null, fallback: number | null) => {
    const base = own ?? inherited ?? fallback;
    return inherited !== null && base !== null ? Math.min(base, inherited) : base;
  };
  return {
    rpm: pick(key.rpm, group?.rpm ?? null, defaults.rpm),
    tpm: pick(key.tpm, group?.tpm ?? null, defaults.tpm),
    maxParallel: pick(key.maxParallel, group?.maxParallel ?? null, defaults.maxParallel),
  };
}

/** Which limit refused a request. */
export type LimitDimension = "requests" | "tokens" | "concurrency";

/** One limit's numbers for the rate-limit headers. */
export interface LimitState {
  readonly limit: number;
  /** Units that could be admitted now, whole, never negative. */
  readonly remaining: number;
  /** Milliseconds until the bucket is full again (the headers' reset). */
  readonly resetMs: number;
}

/** What a check answers. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly deniedBy: LimitDimension | null;
  /** How long until this request would fit (0 when allowed); Retry-After is its whole seconds, at least 1. */
  readonly retryAfterMs: number;
  readonly retryAfterSeconds: number;
  /** The request and token limits after this decision; null where there is no such limit. */
  readonly requests: LimitState | null;
  readonly tokens: LimitState | null;
  /** Present when allowed: settle the tokens, release the slot (each at most once). */
  readonly permit: RatePermit | null;
  /**
   * Refused only because this process used its share of a limit shared with other processes (the key has
   * room gateway-wide as far as this process knows): the caller may hold the request until the next sync
   * (one tick) and ask again instead of answering 429.
   */
  readonly waitForSync: boolean;
}

/** An admitted request's hold on its key's limits. */
export interface RatePermit {
  /** Replaces the token estimate with the real usage (input + output) once it is known. */
  settle(actualTokens: number, now: number): void;
  /** Gives the concurrency slot back: when the last byte was sent, or the request failed. */
  release(): void;
}

/** What a process publishes for one key every tick, and reads of the others (storage: rate_counts). */
export interface RateCounts {
  readonly scope: string;
  readonly origin: string;
  /** Cumulative while the process runs: requests admitted, tokens charged (estimates then settlements). */
  readonly requests: number;
  readonly tokens: number;
  readonly inFlight: number;
  /** The share of each limit the process may use until its next tick. */
  readonly shareRequests: number;
  readonly shareTokens: number;
  readonly shareSlots: number;
  /** The publisher's view of the request and token buckets' levels at updatedAt. */
  readonly levelRequests: number;
  readonly levelTokens: number;
  readonly updatedAt: number;
}

const MINUTE_MS = 60_000;
/** A key idle this long (buckets empty, nothing in flight) is forgotten at the next sync. */
export const RATE_STATE_IDLE_MS = 120_000;
/** Retry-After for a concurrency refusal: a slot frees when some request ends, which nothing predicts. */
const CONCURRENCY_RETRY_MS = 1_000;
/**
 * A process republishes a key's row at least this often while it holds a share, and forgets another
 * process's row (its share and in-flight count) not refreshed for twice as long: that process is gone.
 */
export const RATE_REFRESH_MS = 30_000;
/** An idle process takes this much less than its part of what is left. */
const IDLE_SHARE_DIVISOR = 4;
/** A share that grew by less than this fraction of the limit is not republished (it is used as published). */
const SHARE_REPUBLISH_FRACTION = 0.05;

/** A bucket: `level` units used at instant `at`, draining at limit per minute. */
interface Bucket {
  level: number;
  at: number;
}

interface Remote {
  requests: number;
  tokens: number;
  inFlight: number;
  shareRequests: number;
  shareTokens: number;
  shareSlots: number;
  updatedAt: number;
}

interface KeyState {
  /** This process's view of the key's buckets (everyone's admissions it knows of). */
  readonly requests: Bucket;
  readonly tokens: Bucket;
  /** What this process alone admitted that is still in the buckets (published for processes that join). */
  readonly ownRequests: Bucket;
  readonly ownTokens: Bucket;
  inFlight: number;
  /** Cumulative admitted here (published). */
  totalRequests: number;
  totalTokens: number;
  /** Admitted here since the last sync, and the shares granted then (cluster only). */
  sinceRequests: number;
  sinceTokens: number;
  sinceSlots: number;
  shareRequests: number;
  shareTokens: number;
  shareSlots: number;
  /** What the others were last told: the shares (this process uses no more), in-flight count, when. */
  publishedRequests: number;
  publishedTokens: number;
  publishedSlots: number;
  publishedInFlight: number;
  publishedAt: number;
  /** What each other process last published for this key. */
  readonly remote: Map<string, Remote>;
  othersInFlight: number;
  lastActive: number;
}

function level(bucket: Bucket, limit: number, now: number): number {
  const drained = bucket.level - ((now - bucket.at) * limit) / MINUTE_MS;
  return drained > 0 ? drained : 0;
}

function charge(bucket: Bucket, limit: number | null, units: number, now: number): void {
  // With no limit the bucket is not kept up to date; it starts empty if a limit is set later.
  if (limit === null) return;
  bucket.level = Math.max(level(bucket, limit, now) + units, 0);
  bucket.at = now;
}

/** What is left at `now` of a level another process saw at `at`. */
function decayed(otherLevel: number, limit: number | null, at: number, now: number): number {
  return limit === null ? 0 : Math.max(otherLevel - ((now - at) * limit) / MINUTE_MS, 0);
}

/** Whether a share grew enough since it was published to be worth telling the others. */
function grown(share: number, published: number, limit: number | null): boolean {
  return limit !== null && share - published > limit * SHARE_REPUBLISH_FRACTION;
}

function stateOf(bucket: Bucket, limit: number, now: number): LimitState {
  const used = level(bucket, limit, now);
  return {
    limit,
    remaining: Math.max(Math.floor(limit - used), 0),
    resetMs: Math.ceil((used * MINUTE_MS) / limit),
  };
}

/**
 * The rate limits of every key this process serves. `processes` is how many gateway processes share the
 * database (1 alone); the cluster sync sets it.
 */
export class RateLimiter {
  readonly #keys = new Map<string, KeyState>();
  #processes = 1;

  /** How many processes share the limits, as of the last sync. */
  get processes(): number {
    return this.#processes;
  }

  /**
   * Decides one request of `scope` (a key) under `limits` with an estimated token count. When allowed,
   * the request is counted at once and the permit must be released when it ends (and settled when usage
   * is known); when refused nothing is counted.
   */
  check(scope: string, limits: RateLimits, estimatedTokens: number, now: number): RateDecision {
    if (limits.rpm === null && limits.tpm === null && limits.maxParallel === null) return ALLOW_UNLIMITED;
    const s = this.#state(scope, now, limits);
    const shared = this.#processes > 1;
    const tokens = Math.max(estimatedTokens, 0);
    let deniedBy: LimitDimension | null = null;
    let retryAfterMs = 0;
    let shareOnly = false;
    if (limits.maxParallel !== null) {
      const busy = s.inFlight + s.othersInFlight;
      if (busy + 1 > limits.maxParallel) {
        deniedBy = "concurrency";
        retryAfterMs = CONCURRENCY_RETRY_MS;
      } else if (
        shared && s.sinceSlots + 1 > s.shareSlots + 1e-9 &&
        !(s.sinceSlots === 0 && 1 > limits.maxParallel / (this.#processes + 1))
      ) {
        deniedBy = "concurrency";
        retryAfterMs = SHARE_RETRY_MS;
        shareOnly = true;
      }
    }
    if (deniedBy === null && limits.rpm !== null) {
      const wait = this.#wait(s.requests, limits.rpm, 1, now, shared, s.sinceRequests, s.shareRequests);
      if (wait !== 0) {
        deniedBy = "requests";
        shareOnly = wait < 0;
        retryAfterMs = shareOnly ? SHARE_RETRY_MS : wait;
      }
    }
    if (deniedBy === null && limits.tpm !== null) {
      const wait = this.#wait(s.tokens, limits.tpm, tokens, now, shared, s.sinceTokens, s.shareTokens);
      if (wait !== 0) {
        deniedBy = "tokens";
        shareOnly = wait < 0;
        retryAfterMs = shareOnly ? SHARE_RETRY_MS : wait;
      }
    }
    if (deniedBy !== null) {
      return {
        allowed: false,
        deniedBy,
        retryAfterMs,
        retryAfterSeconds: Math.max(Math.ceil(retryAfterMs / 1000), 1),
        requests: limits.rpm === null ? null : stateOf(s.requests, limits.rpm, now),
        tokens: limits.tpm === null ? null : stateOf(s.tokens, limits.tpm, now),
        permit: null,
        waitForSync: shareOnly,
      };
    }
    charge(s.requests, limits.rpm, 1, now);
    charge(s.tokens, limits.tpm, tokens, now);
    // Kept alone too: a process that joins later learns from it what this one admitted.
    charge(s.ownRequests, limits.rpm, 1, now);
    charge(s.ownTokens, limits.tpm, tokens, now);
    s.inFlight++;
    s.totalRequests++;
    s.totalTokens += tokens;
    s.sinceRequests++;
    s.sinceTokens += tokens;
    s.sinceSlots++;
    s.lastActive = now;
    return {
      allowed: true,
      deniedBy: null,
      retryAfterMs: 0,
      retryAfterSeconds: 0,
      requests: limits.rpm === null ? null : stateOf(s.requests, limits.rpm, now),
      tokens: limits.tpm === null ? null : stateOf(s.tokens, limits.tpm, now),
      permit: new Permit(s, limits.tpm, tokens),
      waitForSync: false,
    };
  }

  /** The numbers for the rate-limit headers without admitting anything (e.g. for a refused budget). */
  peek(
    scope: string,
    limits: RateLimits,
    now: number,
  ): { requests: LimitState | null; tokens: LimitState | null } {
    const s = this.#keys.get(scope);
    const empty: Bucket = { level: 0, at: now };
    return {
      requests: limits.rpm === null ? null : stateOf(s?.requests ?? empty, limits.rpm, now),
      tokens: limits.tpm === null ? null : stateOf(s?.tokens ?? empty, limits.tpm, now),
    };
  }

  /**
   * How long until `units` fit in the bucket (0: now). Shared between processes, a request must also fit the
   * share this process was granted at its last sync: -1 when only the share is short.
   */
  #wait(
    bucket: Bucket,
    limit: number,
    units: number,
    now: number,
    shared: boolean,
    since: number,
    share: number,
  ): number {
    const used = level(bucket, limit, now);
    // A request larger than the limit fits only an empty bucket.
    const need = Math.min(units, limit);
    const over = used + need - limit;
    if (over > 1e-9) return Math.ceil((over * MINUTE_MS) / limit);
    if (shared && since + units > share + 1e-9) {
      // Only a request too big for any share (over a limit's (W + 1)-th part) may take the first turn after a
      // sync beyond its share: otherwise it would never be admitted. That costs at most one such request per
      // process beyond the limit; ordinary requests wait for the next sync instead.
      const big = units > limit / (this.#processes + 1);
      if (!(big && since === 0)) return -1;
    }
    return 0;
  }

  /**
   * A key's state, created on first use. A key first used here between syncs (no process published
   * anything about it at the last sync) starts with a 1/W share of each limit; every process counts that
   * share as held by each other process it has no row from (#share), so the shares never add up to more
   * than the limit.
   */
  #state(scope: string, now: number, limits: RateLimits | null = null): KeyState {
    let s = this.#keys.get(scope);
    if (s === undefined) {
      const w = this.#processes;
      s = {
        requests: { level: 0, at: now },
        tokens: { level: 0, at: now },
        ownRequests: { level: 0, at: now },
        ownTokens: { level: 0, at: now },
        inFlight: 0,
        totalRequests: 0,
        totalTokens: 0,
        sinceRequests: 0,
        sinceTokens: 0,
        sinceSlots: 0,
        shareRequests: (limits?.rpm ?? 0) / w,
        shareTokens: (limits?.tpm ?? 0) / w,
        shareSlots: (limits?.maxParallel ?? 0) / w,
        publishedRequests: 0,
        publishedTokens: 0,
        publishedSlots: 0,
        publishedInFlight: 0,
        publishedAt: -Infinity,
        remote: new Map(),
        othersInFlight: 0,
        lastActive: now,
      };
      this.#keys.set(scope, s);
    }
    return s;
  }

  /**
   * One tick of the cluster exchange: takes in the other processes' counts (their rows updated since the
   * last sync), recomputes this process's shares, and returns the rows to publish: keys whose counts,
   * in-flight requests or share changed, and each key holding a share at least every RATE_REFRESH_MS.
   * `processes` counts this one too (1: alone, nothing is published). `limitsOf` gives a key's limits
   * (null: the key is gone). Keys idle for RATE_STATE_IDLE_MS are forgotten.
   */
  sync(
    origin: string,
    others: readonly RateCounts[],
    processes: number,
    limitsOf: (scope: string) => RateLimits | null,
    now: number,
  ): RateCounts[] {
    this.#processes = Math.max(processes, 1);
    for (const row of others) {
      const limits = limitsOf(row.scope);
      if (limits === null) continue;
      const s = this.#state(row.scope, now);
      const seen = s.remote.get(row.origin);
      if (seen === undefined) {
        // A process first seen (it started, or this one did, or both began serving the key between two
        // syncs): its counts so far are a baseline, and what it alone admitted that is still in the buckets
        // is added to this one's.
        charge(s.requests, limits.rpm, decayed(row.levelRequests, limits.rpm, row.updatedAt, now), now);
        charge(s.tokens, limits.tpm, decayed(row.levelTokens, limits.tpm, row.updatedAt, now), now);
        s.othersInFlight += row.inFlight;
      } else {
        // Differences may be negative: settled refunds.
        charge(s.requests, limits.rpm, row.requests - seen.requests, now);
        charge(s.tokens, limits.tpm, row.tokens - seen.tokens, now);
        s.othersInFlight += row.inFlight - seen.inFlight;
      }
      s.remote.set(row.origin, {
        requests: row.requests,
        tokens: row.tokens,
        inFlight: row.inFlight,
        shareRequests: row.shareRequests,
        shareTokens: row.shareTokens,
        shareSlots: row.shareSlots,
        updatedAt: row.updatedAt,
      });
      if (seen === undefined || row.requests !== seen.requests || row.inFlight > 0) s.lastActive = now;
    }
    const out: RateCounts[] = [];
    for (const [scope, s] of this.#keys) {
      const limits = limitsOf(scope);
      for (const [other, r] of s.remote) {
        if (now - r.updatedAt < 2 * RATE_REFRESH_MS) continue;
        s.othersInFlight -= r.inFlight;
        s.remote.delete(other);
      }
      const idle = now - s.lastActive >= RATE_STATE_IDLE_MS && s.inFlight === 0 && s.othersInFlight <= 0;
      if (limits === null || idle) {
        this.#keys.delete(scope);
        continue;
      }
      const changed = s.sinceRequests > 0 || s.sinceTokens !== 0 || s.inFlight !== s.publishedInFlight;
      this.#share(s, limits, now);
      s.sinceRequests = 0;
      s.sinceTokens = 0;
      s.sinceSlots = 0;
      if (this.#processes === 1) continue;
      const grew = grown(s.shareRequests, s.publishedRequests, limits.rpm) ||
        grown(s.shareTokens, s.publishedTokens, limits.tpm) ||
        grown(s.shareSlots, s.publishedSlots, limits.maxParallel);
      const holding = s.shareRequests > 0 || s.shareTokens > 0 || s.shareSlots > 0;
      const due = holding && now - s.publishedAt >= RATE_REFRESH_MS;
      if (!changed && !grew && !due) {
        // Unpublished, a share may shrink but never grow: the others subtract the share they were told.
        s.shareRequests = Math.min(s.shareRequests, s.publishedRequests);
        s.shareTokens = Math.min(s.shareTokens, s.publishedTokens);
        s.shareSlots = Math.min(s.shareSlots, s.publishedSlots);
        continue;
      }
      s.publishedRequests = s.shareRequests;
      s.publishedTokens = s.shareTokens;
      s.publishedSlots = s.shareSlots;
      s.publishedInFlight = s.inFlight;
      s.publishedAt = now;
      out.push({
        scope,
        origin,
        requests: s.totalRequests,
        tokens: s.totalTokens,
        inFlight: s.inFlight,
        shareRequests: s.shareRequests,
        shareTokens: s.shareTokens,
        shareSlots: s.shareSlots,
        levelRequests: limits.rpm === null ? 0 : level(s.ownRequests, limits.rpm, now),
        levelTokens: limits.tpm === null ? 0 : level(s.ownTokens, limits.tpm, now),
        updatedAt: now,
      });
    }
    return out;
  }

  /**
   * This process's share until its next sync: of what is left in its view of the bucket, minus the shares
   * the others hold (they may have used them without telling yet), one part in `processes`. However the
   * processes' ticks interleave, the shares outstanding never add up to more than what is left.
   */
  #share(s: KeyState, limits: RateLimits, now: number): void {
    let othersRequests = 0;
    let othersTokens = 0;
    let othersSlots = 0;
    for (const r of s.remote.values()) {
      othersRequests += r.shareRequests;
      othersTokens += r.shareTokens;
      othersSlots += r.shareSlots;
    }
    // A process that published nothing about the key may be using the share a key starts with (#state).
    const unknown = Math.max(this.#processes - 1 - s.remote.size, 0) / this.#processes;
    othersRequests += unknown * (limits.rpm ?? 0);
    othersTokens += unknown * (limits.tpm ?? 0);
    othersSlots += unknown * (limits.maxParallel ?? 0);
    // A process that admitted nothing for the key since its last sync takes a quarter of its part, leaving
    // more to the one that serves the key's traffic (taking less than the part is always safe).
    const idle = s.sinceRequests === 0 && s.sinceSlots === 0;
    const w = this.#processes * (idle ? IDLE_SHARE_DIVISOR : 1);
    s.shareRequests = limits.rpm === null
      ? 0
      : Math.max(limits.rpm - level(s.requests, limits.rpm, now) - othersRequests, 0) / w;
    s.shareTokens = limits.tpm === null
      ? 0
      : Math.max(limits.tpm - level(s.tokens, limits.tpm, now) - othersTokens, 0) / w;
    s.shareSlots = limits.maxParallel === null
      ? 0
      : Math.max(limits.maxParallel - s.inFlight - s.othersInFlight - othersSlots, 0) / w;
  }

  /** Forgets another process that left (its in-flight requests no longer hold slots). */
  forget(origin: string): void {
    for (const s of this.#keys.values()) {
      const seen = s.remote.get(origin);
      if (seen === undefined) continue;
      s.othersInFlight -= seen.inFlight;
      s.remote.delete(origin);
    }
  }

  /** How many keys have state (for tests and metrics). */
  get size(): number {
    return this.#keys.size;
  }
}

class Permit implements RatePermit {
  readonly #s: KeyState;
  readonly #tpm: number | null;
  readonly #estimate: number;
  #settled = false;
  #released = false;

  constructor(s: KeyState, tpm: number | null, estimate: number) {
    this.#s = s;
    this.#tpm = tpm;
    this.#estimate = estimate;
  }

  settle(actualTokens: number, now: number): void {
    if (this.#settled) return;
    this.#settled = true;
    const delta = Math.max(actualTokens, 0) - this.#estimate;
    charge(this.#s.tokens, this.#tpm, delta, now);
    charge(this.#s.ownTokens, this.#tpm, delta, now);
    this.#s.totalTokens += delta;
    this.#s.sinceTokens += delta;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#s.inFlight--;
  }
}

/** The wait a share-only refusal reports: the next sync (one 50 ms tick) is the soonest anything changes. */
const SHARE_RETRY_MS = 50;

const NOOP_PERMIT: RatePermit = { settle() {}, release() {} };

const ALLOW_UNLIMITED: RateDecision = {
  allowed: true,
  deniedBy: null,
  retryAfterMs: 0,
  retryAfterSeconds: 0,
  requests: null,
  tokens: null,
  permit: NOOP_PERMIT,
  waitForSync: false,
};
