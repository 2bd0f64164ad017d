/**
 * Batched inserts of whole rows into one table, the same way on both databases' terms: on SQLite one
 * prepared statement run per row; on PostgreSQL a chunk of rows as one `json_to_recordset` parameter
 * (see recordset_json.ts: the driver's per-parameter cost is what this avoids).
 */
import type { Database } from "./database.ts";
import { chunksOf, recordsetJson } from "./recordset_json.ts";
import type { SqlStatement, SqlValue } from "./sql.ts";

/** A table's insert: its columns in order, and their PostgreSQL types for the recordset. */
export interface InsertShape {
  readonly table: string;
  /** Column names as SQL writes them (`"user"` quoted); a stored row's keys are the names unquoted. */
  readonly columns: readonly string[];
  /** `json_to_recordset`'s column definitions (`uid text, ts bigint, …`), the same columns in order. */
  readonly recordsetTypes: string;
  /** Rows per PostgreSQL statement (smaller for rows that carry bodies). */
  readonly chunk: number;
}

/** Inserts stored rows (column → value, in `columns` order) inside the caller's transaction. */
export class RowInserter<R extends Record<string, SqlValue>> {
  readonly #db: Database;
  readonly #postgres: boolean;
  readonly #shape: InsertShape;
  /** The stored row's keys in column order (the names unquoted). */
  readonly #keys: readonly string[];
  #statement: SqlStatement | undefined;

  constructor(db: Database, postgres: boolean, shape: InsertShape) {
    this.#db = db;
    this.#postgres = postgres;
    this.#shape = shape;
    this.#keys = shape.columns.map((column) => column.replaceAll('"', ""));
  }

  /** Inserts the rows; `finite` says whether a row's numbers are all finite (else the JSON takes its slow way). */
  insert(rows: readonly R[], finite: (row: R) => boolean): void {
    const { table, columns, recordsetTypes, chunk } = this.#shape;
    const names = columns.join(", ");
    if (this.#postgres) {
      // `::text`: the parameter is JSON text already, not to be JSON-encoded again.
      const statement = this.#statement ??= this.#db.prepare(
        `INSERT INTO ${table} (${names}) SELECT ${names} FROM json_to_recordset(?::text::json) AS r(${recordsetTypes})`,
      );
      for (const part of chunksOf(rows, chunk)) statement.run(recordsetJson(part, part.every(finite)));
      return;
    }
    const statement = this.#statement ??= this.#db.prepare(
      `INSERT INTO ${table} (${names}) VALUES (${columns.map(() => "?").join(", ")})`,
    );
    for (const row of rows) statement.run(...this.#keys.map((key) => row[key]));
  }
}
