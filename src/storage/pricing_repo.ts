import type { PriceConfig } from "../config/mod.ts";
import type { Database } from "./database.ts";

interface Row {
  model: string;
  input_per_mtok: number;
  output_per_mtok: number;
  cache_creation_per_mtok: number;
  cache_read_per_mtok: number;
}

/** The pricing_overrides table. */
export class PricingRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every override by model. */
  all(): Record<string, PriceConfig> {
    const rows = this.#db.prepare("SELECT * FROM pricing_overrides ORDER BY model").all() as unknown as Row[];
    const out: Record<string, PriceConfig> = {};
    for (const r of rows) {
      out[r.model] = {
        inputPerMtok: r.input_per_mtok,
        outputPerMtok: r.output_per_mtok,
        cacheCreationPerMtok: r.cache_creation_per_mtok,
        cacheReadPerMtok: r.cache_read_per_mtok,
      };
    }
    return out;
  }

  /** Creates or replaces one override. */
  upsert(model: string, price: PriceConfig, now: number): void {
    this.#db.prepare(
      `INSERT INTO pricing_overrides (model, input_per_mtok, output_per_mtok, cache_creation_per_mtok,
         cache_read_per_mtok, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (model) DO UPDATE SET input_per_mtok = excluded.input_per_mtok,
         output_per_mtok = excluded.output_per_mtok, cache_creation_per_mtok = excluded.cache_creation_per_mtok,
         cache_read_per_mtok = excluded.cache_read_per_mtok, updated_at = excluded.updated_at`,
    ).run(
      model,
      price.inputPerMtok,
      price.outputPerMtok,
      price.cacheCreationPerMtok,
      price.cacheReadPerMtok,
      now,
    );
  }

  /** Deletes one override; false when none existed. */
  delete(model: string): boolean {
    return Number(this.#db.prepare("DELETE FROM pricing_overrides WHERE model = ?").run(model).changes) > 0;
  }

  /** Number of rows. */
  count(): number {
    return Number((this.#db.prepare("SELECT count(*) AS n FROM pricing_overrides").get() as { n: number }).n);
  }
}
