import type { Database } from "./database.ts";

/** A daily budget: global when keyId is null, else for one DB key. */
export interface BudgetRecord {
  readonly id: number;
  readonly keyId: number | null;
  readonly dailyLimit: number;
  readonly warnPct: number;
}

interface Row {
  id: number;
  key_id: number | null;
  daily_limit: number;
  warn_pct: number;
}

/** The budgets table: at most one budget per scope (setting one replaces the old). */
export class BudgetsRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every budget, global first. */
  list(): BudgetRecord[] {
    const rows = this.#db.prepare("SELECT * FROM budgets ORDER BY key_id IS NOT NULL, key_id")
      .all() as unknown as Row[];
    return rows.map(toRecord);
  }

  /** Creates or replaces the budget of a scope; returns it. */
  set(keyId: number | null, dailyLimit: number, warnPct: number, now: number): BudgetRecord {
    const existing = this.forScope(keyId);
    if (existing) {
      this.#db.prepare("UPDATE budgets SET daily_limit = ?, warn_pct = ?, updated_at = ? WHERE id = ?")
        .run(dailyLimit, warnPct, now, existing.id);
      return { ...existing, dailyLimit, warnPct };
    }
    const row = this.#db.prepare(
      "INSERT INTO budgets (key_id, daily_limit, warn_pct, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING *",
    ).get(keyId, dailyLimit, warnPct, now, now) as unknown as Row;
    return toRecord(row);
  }

  /** The budget of one scope. */
  forScope(keyId: number | null): BudgetRecord | undefined {
    const row =
      (keyId === null
        ? this.#db.prepare("SELECT * FROM budgets WHERE key_id IS NULL").get()
        : this.#db.prepare("SELECT * FROM budgets WHERE key_id = ?").get(keyId)) as unknown as
          | Row
          | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Deletes by id; false when none existed. */
  delete(id: number): boolean {
    return Number(this.#db.prepare("DELETE FROM budgets WHERE id = ?").run(id).changes) > 0;
  }

  /** Deletes the budget of a scope. */
  deleteScope(keyId: number | null): void {
    if (keyId === null) this.#db.prepare("DELETE FROM budgets WHERE key_id IS NULL").run();
    else this.#db.prepare("DELETE FROM budgets WHERE key_id = ?").run(keyId);
  }
}

function toRecord(row: Row): BudgetRecord {
  return {
    id: Number(row.id),
    keyId: row.key_id === null ? null : Number(row.key_id),
    dailyLimit: row.daily_limit,
    warnPct: row.warn_pct,
  };
}
