import type { DatabaseSync } from "node:sqlite";

const MIGRATIONS_DIR = new URL("../../migrations/", import.meta.url);
const LEGACY_SETTINGS = ["dashboard_username", "dashboard_password_hash", "dashboard_session_secret"];

/** One numbered SQL file. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Reads `migrations/NNNN_name.sql` in version order (embedded in the compiled binary). */
export function loadMigrations(dir: URL = MIGRATIONS_DIR): Migration[] {
  const migrations: Migration[] = [];
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
 * Applies migrations newer than `PRAGMA user_version`, each in its own transaction. Statements are
 * idempotent: tables and indexes use IF NOT EXISTS, and an `ADD COLUMN` for a column that already
 * exists is skipped, so re-running on an up-to-date or partly migrated database is safe.
 */
export function migrate(db: DatabaseSync, migrations: readonly Migration[] = loadMigrations()): number {
  const current = Number((db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version);
  let applied = 0;
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const statement of splitStatements(migration.sql)) runIdempotent(db, statement);
      db.exec(`PRAGMA user_version = ${migration.version}`);
      db.exec("COMMIT");
      applied++;
    } catch (error) {
      db.exec("ROLLBACK");
      throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
    }
  }
  const placeholders = LEGACY_SETTINGS.map(() => "?").join(", ");
  db.prepare(`DELETE FROM settings WHERE key IN (${placeholders})`).run(...LEGACY_SETTINGS);
  return applied;
}

function runIdempotent(db: DatabaseSync, statement: string): void {
  try {
    db.exec(statement);
  } catch (error) {
    if (/duplicate column name/i.test((error as Error).message)) return;
    throw error;
  }
}

/** Splits a migration file into statements at semicolons that end a line (comments removed). */
export function splitStatements(sql: string): string[] {
  return sql
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("--"))
    .join("\n")
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
