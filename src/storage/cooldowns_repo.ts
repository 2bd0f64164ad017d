import type { Database } from "./database.ts";

/** A persisted cooldown: the account is skipped until `expiresAt` (epoch ms). */
export interface CooldownRecord {
  readonly accountId: string;
  readonly expiresAt: number;
  readonly reason: string;
  readonly backoffLevel: number;
}

/** The cooldowns table; cooldowns survive restarts. */
export class CooldownsRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every stored cooldown. */
  all(): CooldownRecord[] {
    const rows = this.#db.prepare("SELECT * FROM cooldowns").all() as unknown as {
      account_id: string;
      expires_at: number;
      reason: string;
      backoff_level: number;
    }[];
    return rows.map((r) => ({
      accountId: r.account_id,
      expiresAt: Number(r.expires_at),
      reason: r.reason,
      backoffLevel: Number(r.backoff_level),
    }));
  }

  /** Writes or removes (record null) cooldowns, in the caller's transaction. */
  apply(changes: readonly { accountId: string; record: CooldownRecord | null }[]): void {
    const upsert = this.#db.prepare(
      `INSERT INTO cooldowns (account_id, expires_at, reason, backoff_level) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET expires_at = excluded.expires_at, reason = excluded.reason,
         backoff_level = excluded.backoff_level`,
    );
    const remove = this.#db.prepare("DELETE FROM cooldowns WHERE account_id = ?");
    for (const change of changes) {
      if (change.record) {
        upsert.run(
          change.accountId,
          change.record.expiresAt,
          change.record.reason,
          change.record.backoffLevel,
        );
      } else remove.run(change.accountId);
    }
  }

  /** Removes every cooldown. */
  clear(): void {
    this.#db.prepare("DELETE FROM cooldowns").run();
  }
}
