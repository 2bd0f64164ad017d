import { DatabaseSync, type StatementSync } from "node:sqlite";
import { dirname } from "node:path";
import { migrate } from "./migrate.ts";
import { LruMap } from "../lru_map.ts";
import type { SqlDatabase, SqlStatement } from "./sql.ts";

/** The database handle type used by every repository (SQLite, or PostgreSQL through its bridge). */
export type Database = SqlDatabase;

/**
 * Opens (creating if needed) the SQLite database, applies pragmas and runs migrations. The handle is
 * passed to repositories; nothing opens the database at import time.
 */
export function openDatabase(path: string): SqliteDatabase {
  if (path !== ":memory:") Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(path);
  // First, so that every later statement (switching to WAL and migrating included) waits for a lock
  // another process holds (a CLI command while the server starts) rather than failing at once.
  db.exec("PRAGMA busy_timeout = 5000");
  // WAL lets the CLI write while the server reads; NORMAL is durable across process crashes in WAL mode.
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db);
  if (path !== ":memory:") {
    try {
      Deno.chmodSync(path, 0o600);
    } catch { /* not supported on every platform */ }
  }
  return new SqliteDatabase(db);
}

/** Most statements kept compiled; SQL built per call (filters, lists of placeholders) can only evict. */
export const MAX_CACHED_STATEMENTS = 256;

/**
 * A SQLite database whose statements are compiled once per SQL text. node:sqlite compiles on every
 * `prepare`, and repositories prepare where they run: saving a stored response (five statements) spent
 * more in compiling than in writing (about 8 % of a loaded gateway's time on Responses streams). A kept
 * statement is reset by its next run, and a loop that leaves `iterate` early resets it too, so none holds
 * a read snapshot open. The least recently used statement goes when the cache is full.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new LruMap<string, StatementSync>(MAX_CACHED_STATEMENTS);

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  prepare(sql: string): SqlStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}

/** Runs `work` in one transaction, rolling back on error. */
export function transaction<T>(db: Database, work: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/** One sealed credential from the database, to check a secret key against; undefined when none is stored. */
export function sealedSample(db: Database): string | undefined {
  const row = db.prepare(
    `SELECT api_key AS value FROM providers WHERE api_key LIKE 'enc:v1:%'
     UNION ALL SELECT key_value FROM upstream_keys WHERE key_value LIKE 'enc:v1:%' LIMIT 1`,
  ).get() as { value: string } | undefined;
  return row?.value;
}
