/**
 * The database interface every repository is written against: the part of node:sqlite's synchronous API
 * they use. `DatabaseSync` satisfies it as is; `PgDatabase` (src/storage/postgres/) implements it over
 * PostgreSQL.
 */

/** What a write reports. */
export interface RunResult {
  readonly changes: number | bigint;
  readonly lastInsertRowid: number | bigint;
}

/** A value a parameter can bind (node:sqlite's set; PostgreSQL takes the same). */
export type SqlValue = null | number | bigint | string | Uint8Array;

/** A prepared statement; parameters bind to `?` placeholders in order. */
export interface SqlStatement {
  run(...params: SqlValue[]): RunResult;
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  /** Rows one at a time (SQLite reads lazily; PostgreSQL fetches them all first). */
  iterate(...params: SqlValue[]): Iterable<unknown>;
}

/** One open database. */
export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  readonly isOpen: boolean;
  close(): void;
}
