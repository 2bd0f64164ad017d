import type { Database } from "./database.ts";

/** Counters of one token saver. */
export interface SaverStat {
  readonly saver: string;
  readonly requests: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  readonly errors: number;
}

/** The saver_stats table (written by the savers pipeline; read by the dashboard). */
export class SaverStatsRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every saver's counters. */
  all(): SaverStat[] {
    const rows = this.#db.prepare("SELECT * FROM saver_stats ORDER BY saver").all() as unknown as {
      saver: string;
      requests: number;
      bytes_before: number;
      bytes_after: number;
      errors: number;
    }[];
    return rows.map((r) => ({
      saver: r.saver,
      requests: Number(r.requests),
      bytesBefore: Number(r.bytes_before),
      bytesAfter: Number(r.bytes_after),
      errors: Number(r.errors),
    }));
  }

  /** Adds counts to a saver's counters. */
  add(saver: string, requests: number, bytesBefore: number, bytesAfter: number, errors: number): void {
    this.#db.prepare(
      `INSERT INTO saver_stats (saver, requests, bytes_before, bytes_after, errors) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (saver) DO UPDATE SET requests = saver_stats.requests + excluded.requests,
         bytes_before = saver_stats.bytes_before + excluded.bytes_before, bytes_after = saver_stats.bytes_after + excluded.bytes_after,
         errors = saver_stats.errors + excluded.errors`,
    ).run(saver, requests, bytesBefore, bytesAfter, errors);
  }
}
