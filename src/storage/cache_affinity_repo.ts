import type { Database } from "./database.ts";
import { chunksOf, lastPerKey, recordsetJson } from "./recordset_json.ts";

/** One sticky prompt-cache binding: the hashed cache key and the account that serves it. */
export interface AffinityRecord {
  readonly keyHash: string;
  readonly accountId: string;
  readonly usedAt: number;
}

/** The cache_affinity table: prompt-cache bindings that survive a restart. */
export class CacheAffinityRepo {
  readonly #db: Database;
  readonly #postgres: boolean;

  /** `postgres` says the database is PostgreSQL, where a batch is upserted from one JSON parameter. */
  constructor(db: Database, postgres = false) {
    this.#db = db;
    this.#postgres = postgres;
  }

  /** The most recently used bindings since `since`, newest last, at most `limit`. */
  recent(since: number, limit: number): AffinityRecord[] {
    const rows = this.#db.prepare(
      `SELECT key_hash, account_id, used_at FROM (
         SELECT * FROM cache_affinity WHERE used_at >= ? ORDER BY used_at DESC LIMIT ?
       ) AS latest ORDER BY used_at`,
    ).all(since, limit) as unknown as { key_hash: string; account_id: string; used_at: number }[];
    return rows.map((r) => ({ keyHash: r.key_hash, accountId: r.account_id, usedAt: Number(r.used_at) }));
  }

  /** Writes bindings, in the caller's transaction (one batch of the batched writer). */
  upsert(records: readonly AffinityRecord[]): void {
    if (this.#postgres) {
      // One statement per chunk instead of one per record (see recordset_json.ts).
      const statement = this.#db.prepare(
        `INSERT INTO cache_affinity (key_hash, account_id, used_at)
         SELECT "keyHash", "accountId", "usedAt"
         FROM json_to_recordset(?::text::json) AS r("keyHash" text, "accountId" text, "usedAt" bigint)
         ON CONFLICT (key_hash) DO UPDATE SET account_id = excluded.account_id, used_at = excluded.used_at`,
      );
      const rows = lastPerKey(records, (r) => r.keyHash);
      for (const chunk of chunksOf(rows)) {
        statement.run(recordsetJson(chunk, chunk.every((r) => Number.isFinite(r.usedAt))));
      }
      return;
    }
    const statement = this.#db.prepare(
      `INSERT INTO cache_affinity (key_hash, account_id, used_at) VALUES (?, ?, ?)
       ON CONFLICT (key_hash) DO UPDATE SET account_id = excluded.account_id, used_at = excluded.used_at`,
    );
    for (const r of records) statement.run(r.keyHash, r.accountId, r.usedAt);
  }

  /** Drops bindings unused since `before`. */
  prune(before: number): void {
    this.#db.prepare("DELETE FROM cache_affinity WHERE used_at < ?").run(before);
  }
}
