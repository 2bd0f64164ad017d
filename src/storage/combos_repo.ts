import type { ComboConfig } from "../config/mod.ts";
import type { Database } from "./database.ts";
import { stringList } from "./json_column.ts";

/** A stored combo with its id. */
export interface ComboRecord extends ComboConfig {
  readonly id: number;
}

/** The combos table. */
export class CombosRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every combo by id. */
  list(): ComboRecord[] {
    const rows = this.#db.prepare("SELECT id, name, models FROM combos ORDER BY id").all() as unknown as {
      id: number;
      name: string;
      models: string;
    }[];
    return rows.map((r) => ({ id: Number(r.id), name: r.name, models: stringList(r.models) }));
  }

  /** Inserts a combo; returns its id. */
  create(combo: ComboConfig, now: number): number {
    const row = this.#db.prepare(
      "INSERT INTO combos (name, models, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
    ).get(combo.name, JSON.stringify(combo.models), now, now) as { id: number };
    return Number(row.id);
  }

  /** Replaces a combo's name and members; false when it does not exist. */
  update(id: number, combo: ComboConfig, now: number): boolean {
    const result = this.#db.prepare("UPDATE combos SET name = ?, models = ?, updated_at = ? WHERE id = ?")
      .run(combo.name, JSON.stringify(combo.models), now, id);
    return Number(result.changes) > 0;
  }

  /** Deletes a combo; false when it did not exist. */
  delete(id: number): boolean {
    return Number(this.#db.prepare("DELETE FROM combos WHERE id = ?").run(id).changes) > 0;
  }

  /** Number of rows. */
  count(): number {
    return Number((this.#db.prepare("SELECT count(*) AS n FROM combos").get() as { n: number }).n);
  }
}
