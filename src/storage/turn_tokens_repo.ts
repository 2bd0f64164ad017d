import type { Database } from "./database.ts";
import { chunksOf, lastPerKey, recordsetJson } from "./recordset_json.ts";

/** One stored row: the key of a tool call and its tokens as JSON text. */
export interface TurnTokensRow {
  readonly key: string;
  readonly tokens: string;
  readonly createdAt: number;
}

/** The turn_tokens table: opaque upstream tokens kept for tool calls whose client cannot carry them. */
export class TurnTokensRepo {
  readonly #db: Database;
  readonly #postgres: boolean;

  /** `postgres` says the database is PostgreSQL, where a batch is upserted from one JSON parameter. */
  constructor(db: Database, postgres = false) {
    this.#db = db;
    this.#postgres = postgres;
  }

  /** Newest rows first, until `maxChars` of token text is reached (what fits the in-memory cache). */
  newest(maxChars: number): TurnTokensRow[] {
    const rows: TurnTokensRow[] = [];
    let chars = 0;
    const statement = this.#db.prepare(
      "SELECT key, tokens, created_at FROM turn_tokens ORDER BY created_at DESC, rowid DESC",
    );
    for (const row of statement.iterate() as Iterable<{ key: string; tokens: string; created_at: number }>) {
      chars += row.key.length + row.tokens.length;
      if (chars > maxChars) break;
      rows.push({ key: row.key, tokens: row.tokens, createdAt: Number(row.created_at) });
    }
    return rows;
  }

  /** Inserts or replaces rows (one batch). */
  put(rows: readonly TurnTokensRow[]): void {
    if (this.#postgres) {
      // One statement per chunk instead of one per row (see recordset_json.ts).
      const statement = this.#db.prepare(
        `INSERT INTO turn_tokens (key, tokens, created_at)
         SELECT key, tokens, "createdAt"
         FROM json_to_recordset(?::text::json) AS r(key text, tokens text, "createdAt" bigint)
         ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, created_at = excluded.created_at`,
      );
      const unique = lastPerKey(rows, (r) => r.key);
      for (const chunk of chunksOf(unique)) {
        statement.run(recordsetJson(chunk, chunk.every((r) => Number.isFinite(r.createdAt))));
      }
      return;
    }
    const statement = this.#db.prepare(
      "INSERT INTO turn_tokens (key, tokens, created_at) VALUES (?, ?, ?) " +
        "ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, created_at = excluded.created_at",
    );
    for (const row of rows) statement.run(row.key, row.tokens, row.createdAt);
  }

  /** Deletes rows created before `cutoff` (ms); returns how many. */
  prune(cutoff: number): number {
    return Number(this.#db.prepare("DELETE FROM turn_tokens WHERE created_at < ?").run(cutoff).changes);
  }
}
