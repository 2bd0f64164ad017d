import type { PriceConfig } from "../config/mod.ts";
import type { Database } from "./database.ts";

interface Row {
  model: string;
  input_per_mtok: number;
  output_per_mtok: number;
  cache_creation_per_mtok: number;
  cache_read_per_mtok: number;
  per_image: string | null;
  per_second: number | null;
  per_mchar: number | null;
  per_search_unit?: number | null;
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
        ...mediaPrices(r),
      };
    }
    return out;
  }

  /** Creates or replaces one override. */
  upsert(model: string, price: PriceConfig, now: number): void {
    this.#db.prepare(
      `INSERT INTO pricing_overrides (model, input_per_mtok, output_per_mtok, cache_creation_per_mtok,
         cache_read_per_mtok, per_image, per_second, per_mchar, per_search_unit, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (model) DO UPDATE SET input_per_mtok = excluded.input_per_mtok,
         output_per_mtok = excluded.output_per_mtok, cache_creation_per_mtok = excluded.cache_creation_per_mtok,
         cache_read_per_mtok = excluded.cache_read_per_mtok, per_image = excluded.per_image,
         per_second = excluded.per_second, per_mchar = excluded.per_mchar,
         per_search_unit = excluded.per_search_unit, updated_at = excluded.updated_at`,
    ).run(
      model,
      price.inputPerMtok,
      price.outputPerMtok,
      price.cacheCreationPerMtok,
      price.cacheReadPerMtok,
      price.perImage === undefined ? null : JSON.stringify(price.perImage),
      price.perSecond ?? null,
      price.perMchar ?? null,
      price.perSearchUnit ?? null,
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

/** The per-image, per-second, per-character and per-search-unit prices of a row, only those it has. */
function mediaPrices(r: Row): Pick<PriceConfig, "perImage" | "perSecond" | "perMchar" | "perSearchUnit"> {
  const out: {
    perImage?: Record<string, number>;
    perSecond?: number;
    perMchar?: number;
    perSearchUnit?: number;
  } = {};
  if (r.per_image !== null && r.per_image !== undefined) out.perImage = JSON.parse(r.per_image);
  if (r.per_second !== null && r.per_second !== undefined) out.perSecond = Number(r.per_second);
  if (r.per_mchar !== null && r.per_mchar !== undefined) out.perMchar = Number(r.per_mchar);
  if (r.per_search_unit !== null && r.per_search_unit !== undefined) {
    out.perSearchUnit = Number(r.per_search_unit);
  }
  return out;
}
