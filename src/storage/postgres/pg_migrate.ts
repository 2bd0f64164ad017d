import type { PgDatabase } from "./pg_database.ts";

const MIGRATIONS_DIR = new URL("../../../migrations/postgres/", import.meta.url);

/** One numbered PostgreSQL migration file. */
interface PgMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Reads `migrations/postgres/NNNN_name.sql` in version order (embedded in the compiled binary). */
export function loadPgMigrations(dir: URL = MIGRATIONS_DIR): PgMigration[] {
  const migrations: PgMigration[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const match = /^(\d{4})_[\w-]+\.sql$/.exec(entry.name);
    if (!entry.isFile || !match) continue;
    migrations.push({
      version: Number(match[1]),
      name: entry.name,
      sql: Deno.readTextFileSync(new URL(entry.name, dir)),
    });
  }
  return migrations.sort((a, b) => a.version - b.version);
}

/**
 * Applies the PostgreSQL migrations not yet recorded in `schema_migrations`, each in its own transaction,
 * under an advisory lock so instances starting together do not race. Every statement is idempotent (IF
 * NOT EXISTS, OR REPLACE), and migrations only add. Returns how many were applied.
 */
export function migratePostgres(db: PgDatabase, migrations = loadPgMigrations()): number {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
  );
  let applied = 0;
  for (const migration of migrations) {
    db.exec("BEGIN");
    try {
      // Held to the end of the transaction: a second instance waits here, then sees the version recorded.
      db.prepare("SELECT pg_advisory_xact_lock(724611)").get();
      const done = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?").get(migration.version);
      if (!done) {
        db.exec(migration.sql);
        // The server's clock stamps it: storage takes no clock of its own.
        db.prepare(
          "INSERT INTO schema_migrations (version, name, applied_at) " +
            "VALUES (?, ?, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)",
        ).run(migration.version, migration.name);
        applied++;
      }
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw new Error(`PostgreSQL migration ${migration.name} failed: ${(error as Error).message}`);
    }
  }
  return applied;
}
