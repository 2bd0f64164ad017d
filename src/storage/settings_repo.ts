import type { Database } from "./database.ts";

/** The settings key-value table. Values are validated before they get here. */
export class SettingsRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every stored setting. */
  all(): Map<string, string> {
    const rows = this.#db.prepare("SELECT key, value FROM settings").all() as unknown as {
      key: string;
      value: string;
    }[];
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /** Stores one value. */
  set(key: string, value: string): void {
    this.#db.prepare(
      "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run(key, value);
  }

  /** Removes keys (back to defaults). */
  delete(keys: readonly string[]): void {
    const statement = this.#db.prepare("DELETE FROM settings WHERE key = ?");
    for (const key of keys) statement.run(key);
  }
}
