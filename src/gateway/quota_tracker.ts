import {
  type AccountLimits,
  assessHeadroom,
  type HeaderLookup,
  type Headroom,
  isSpent,
  type LimitWindow,
  type LocalCounts,
  type ObservedLimits,
  readLimitHeaders,
  windowBounds,
} from "../routing/mod.ts";

/** What the tracker keeps per account. */
interface AccountTrack {
  observed?: ObservedLimits;
  /** Send times of the last minute's attempts, oldest first (kept only when an rpm is configured). */
  minute: number[];
  dayStart: number;
  day: number;
  /** `<window>:<metric>` → the window's start and what it used. */
  quotas: Map<string, { start: number; used: number }>;
  cached?: Headroom;
}

const MINUTE_MS = 60_000;
const NONE: ReadonlySet<string> = new Set();

/**
 * Per-account limits as upstream answers report them and as configured (rpm, rpd, subscription quota
 * windows), with the gateway's own counts against the configured ones. The headroom of an account is
 * assessed by the pure core and cached until a new answer, a new attempt or a window boundary changes
 * it, so ordering a thousand accounts costs a map lookup each.
 */
export class QuotaTracker {
  readonly #tracks = new Map<string, AccountTrack>();
  #limits: ReadonlyMap<string, AccountLimits> = new Map();
  /**
   * Accounts that were spent when last assessed, with the instant that assessment expires. Kept up to
   * date on every change, so ordering a request reads this (usually empty) map instead of assessing
   * every account of the prefix.
   */
  readonly #spent = new Map<string, number>();
  /** `spentNow()`'s answer, reused until an assessment expires or changes. */
  #spentView: { set: ReadonlySet<string>; until: number } | null = null;

  /** Replaces the configured limits (at load and on every reload). */
  setLimits(limits: ReadonlyMap<string, AccountLimits>, now: number): void {
    this.#limits = limits;
    for (const track of this.#tracks.values()) track.cached = undefined;
    this.#spent.clear();
    this.#spentView = null;
    for (const accountId of this.accounts()) this.#reassess(accountId, now);
  }

  /**
   * Starts the configured windows of every limited account from stored usage (at start: the counts are
   * otherwise in memory only). `since(accountId, start)` answers the attempts and tokens since `start`.
   * The rolling minute starts empty; an rpd counts today's attempts.
   */
  seed(since: (accountId: string, start: number) => { requests: number; tokens: number }, now: number): void {
    for (const [accountId, limits] of this.#limits) {
      const track = this.#track(accountId, now);
      if (limits.rpd !== undefined && limits.rpd > 0) track.day = since(accountId, track.dayStart).requests;
      for (const rule of limits.quotas ?? []) {
        const start = windowBounds(rule.window, now).start;
        const totals = since(accountId, start);
        track.quotas.set(`${rule.window}:${rule.metric}`, {
          start,
          used: rule.metric === "tokens" ? totals.tokens : totals.requests,
        });
      }
      track.cached = undefined;
      this.#reassess(accountId, now);
    }
  }

  /** The accounts whose tightest window is empty at `now`. */
  spentNow(now: number): ReadonlySet<string> {
    if (this.#spent.size === 0) return NONE;
    if (this.#spentView !== null && this.#spentView.until > now) return this.#spentView.set;
    // Assessments past their validity are redone: a window may have refilled.
    for (const [accountId, until] of [...this.#spent]) if (until <= now) this.#reassess(accountId, now);
    let until = Infinity;
    for (const value of this.#spent.values()) until = Math.min(until, value);
    const set = new Set(this.#spent.keys());
    this.#spentView = { set, until };
    return set;
  }

  /** Assesses an account again and files it as spent or not; true when it is spent. */
  #reassess(accountId: string, now: number): boolean {
    const headroom = this.headroom(accountId, now);
    const spent = isSpent(headroom);
    const was = this.#spent.get(accountId);
    if (spent && was !== headroom!.validUntil) this.#spent.set(accountId, headroom!.validUntil);
    else if (!spent && was !== undefined) this.#spent.delete(accountId);
    else return spent;
    this.#spentView = null;
    return spent;
  }

  /** Records what an upstream answer's headers say about the account's windows. */
  observe(accountId: string, header: HeaderLookup, now: number): void {
    const windows = readLimitHeaders(header, now);
    if (windows.length === 0) return;
    this.observeWindows(accountId, windows, now);
  }

  /**
   * Records windows learnt another way (a stream event, a quota endpoint). Windows of the same id
   * replace the earlier ones; others stay until their reset.
   */
  observeWindows(accountId: string, windows: readonly LimitWindow[], now: number): void {
    const track = this.#track(accountId, now);
    const ids = new Set(windows.map((w) => w.id));
    const kept = (track.observed?.windows ?? []).filter((w) => !ids.has(w.id) && (w.resetAtMs ?? 0) > now);
    track.observed = { windows: [...kept, ...windows], observedAt: now };
    track.cached = undefined;
    this.#reassess(accountId, now);
  }

  /** Counts one attempt sent to the account (only accounts with configured limits are counted). */
  attempted(accountId: string, now: number): void {
    const limits = this.#limits.get(accountId);
    if (limits === undefined) return;
    const track = this.#track(accountId, now);
    if (limits.rpm !== undefined && limits.rpm > 0) {
      track.minute.push(now);
      // The deque never holds more than the limit plus the attempts the soft ordering lets through.
      if (track.minute.length > limits.rpm * 4) track.minute.splice(0, track.minute.length - limits.rpm * 4);
    }
    track.day += 1;
    this.#bump(track, limits, "requests", 1, now);
    track.cached = undefined;
    this.#reassess(accountId, now);
  }

  /** Counts the tokens (input + output) of a successful answer against token quotas. */
  usedTokens(accountId: string, tokens: number, now: number): void {
    const limits = this.#limits.get(accountId);
    if (limits === undefined || tokens <= 0) return;
    const track = this.#track(accountId, now);
    if (!this.#bump(track, limits, "tokens", tokens, now)) return;
    track.cached = undefined;
    this.#reassess(accountId, now);
  }

  /** The account's headroom now, or undefined when nothing is known or configured about its limits. */
  headroom(accountId: string, now: number): Headroom | undefined {
    const track = this.#tracks.get(accountId);
    // The cached assessment first: quota_aware reads every account of a prefix per request.
    if (track?.cached !== undefined && track.cached.validUntil > now) return track.cached;
    const limits = this.#limits.get(accountId);
    if (track === undefined && limits === undefined) return undefined;
    const assessed = assessHeadroom(
      track?.observed,
      track ? this.#counts(track, now) : undefined,
      limits,
      now,
    );
    if (track !== undefined) track.cached = assessed;
    return assessed;
  }

  /** Every account the tracker knows something about. */
  accounts(): string[] {
    return [...new Set([...this.#tracks.keys(), ...this.#limits.keys()])];
  }

  #track(accountId: string, now: number): AccountTrack {
    let track = this.#tracks.get(accountId);
    if (track === undefined) {
      track = { minute: [], dayStart: windowBounds("daily", now).start, day: 0, quotas: new Map() };
      this.#tracks.set(accountId, track);
    }
    const dayStart = windowBounds("daily", now).start;
    if (track.dayStart !== dayStart) {
      track.dayStart = dayStart;
      track.day = 0;
    }
    return track;
  }

  #bump(track: AccountTrack, limits: AccountLimits, metric: string, amount: number, now: number): boolean {
    let changed = false;
    for (const rule of limits.quotas ?? []) {
      if (rule.metric !== metric) continue;
      const key = `${rule.window}:${rule.metric}`;
      const start = windowBounds(rule.window, now).start;
      const current = track.quotas.get(key);
      track.quotas.set(key, { start, used: (current?.start === start ? current.used : 0) + amount });
      changed = true;
    }
    return changed;
  }

  #counts(track: AccountTrack, now: number): LocalCounts {
    let drop = 0;
    while (drop < track.minute.length && track.minute[drop] <= now - MINUTE_MS) drop++;
    if (drop > 0) track.minute.splice(0, drop);
    const quotas: Record<string, number> = {};
    for (const [key, value] of track.quotas) {
      const window = key.slice(0, key.indexOf(":")) as Parameters<typeof windowBounds>[0];
      if (windowBounds(window, now).start === value.start) quotas[key] = value.used;
    }
    const dayStart = windowBounds("daily", now).start;
    return {
      minute: track.minute.length,
      minuteFreesAt: track.minute.length > 0 ? track.minute[0] + MINUTE_MS : null,
      day: track.dayStart === dayStart ? track.day : 0,
      quotas,
    };
  }
}
