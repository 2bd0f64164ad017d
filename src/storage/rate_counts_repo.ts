import type { RateCounts } from "../accounting/rate_limiter.ts";
import type { Database } from "./database.ts";

/**
 * One process's rate-limit counts for one scope (a key), as it publishes them every tick: the limiter's own
 * `RateCounts` (cumulative admissions, never reset while it runs, so a reader takes differences and a missed
 * read loses nothing; in-flight requests; its share of each limit until its next tick), stored as a row.
 */
export type RateCountRow = RateCounts;

interface Row {
  scope: string;
  origin: string;
  requests: number;
  tokens: number;
  in_flight: number;
  share_requests: number;
  share_tokens: number;
  share_slots: number;
  level_requests: number;
  level_tokens: number;
  updated_at: number;
}

/** The rate_counts table through which processes on one database share their rate-limit counts. */
export class RateCountsRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Writes this process's rows (each replaces the process's previous row for that scope). */
  publish(rows: readonly RateCountRow[]): void {
    const statement = this.#db.prepare(
      `INSERT INTO rate_counts (scope, origin, requests, tokens, in_flight, share_requests, share_tokens,
         share_slots, level_requests, level_tokens, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (scope, origin) DO UPDATE SET requests = excluded.requests, tokens = excluded.tokens,
         in_flight = excluded.in_flight, share_requests = excluded.share_requests,
         share_tokens = excluded.share_tokens, share_slots = excluded.share_slots,
         level_requests = excluded.level_requests, level_tokens = excluded.level_tokens,
         updated_at = excluded.updated_at`,
    );
    for (const r of rows) {
      statement.run(
        r.scope,
        r.origin,
        r.requests,
        r.tokens,
        r.inFlight,
        r.shareRequests,
        r.shareTokens,
        r.shareSlots,
        r.levelRequests,
        r.levelTokens,
        r.updatedAt,
      );
    }
  }

  /** The other processes' rows updated at or after `since`. */
  others(origin: string, since: number): RateCountRow[] {
    const rows = this.#db.prepare(
      "SELECT * FROM rate_counts WHERE origin <> ? AND updated_at >= ? ORDER BY scope, origin",
    ).all(origin, since) as unknown as Row[];
    return rows.map((r) => ({
      scope: r.scope,
      origin: r.origin,
      requests: Number(r.requests),
      tokens: Number(r.tokens),
      inFlight: Number(r.in_flight),
      shareRequests: r.share_requests,
      shareTokens: r.share_tokens,
      shareSlots: r.share_slots,
      levelRequests: r.level_requests,
      levelTokens: r.level_tokens,
      updatedAt: Number(r.updated_at),
    }));
  }

  /** Removes one process's rows (it stops). */
  leave(origin: string): void {
    this.#db.prepare("DELETE FROM rate_counts WHERE origin = ?").run(origin);
  }

  /** Deletes rows not updated since `before` (gone processes, idle scopes); returns how many. */
  prune(before: number): number {
    return Number(this.#db.prepare("DELETE FROM rate_counts WHERE updated_at < ?").run(before).changes);
  }
}
