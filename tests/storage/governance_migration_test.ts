/**
 * Migration 0020 on a database that already holds keys and daily budgets (including two active keys with the
 * same name, which older versions allowed): nothing is lost, old budgets read as daily key/global budgets, and
 * new periods can be added beside them. On SQLite and PostgreSQL.
 */
import { DatabaseSync } from "node:sqlite";
import { loadMigrations, migrate } from "../../src/storage/migrate.ts";
import { loadPgMigrations, PgDatabase, SecretBox, Store } from "../../src/storage/mod.ts";
import { migratePostgres } from "../../src/storage/postgres/pg_migrate.ts";
import type { SqlDatabase } from "../../src/storage/sql.ts";
import { assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const NOW = 1_764_000_000_000;
const box = new SecretBox(new Uint8Array(32).fill(5));

function seedOld(db: SqlDatabase): void {
  for (const [name, hash] of [["ci", "h1"], ["ci", "h2"], ["ops", "h3"]]) {
    db.prepare(
      "INSERT INTO api_keys (name, key_hash, prefix, created_at, updated_at) VALUES (?, ?, 'sk-x', ?, ?)",
    ).run(name, hash, NOW, NOW);
  }
  db.prepare(
    "INSERT INTO budgets (key_id, daily_limit, warn_pct, created_at, updated_at) VALUES (NULL, 10, 80, ?, ?)",
  )
    .run(NOW, NOW);
  db.prepare(
    "INSERT INTO budgets (key_id, daily_limit, warn_pct, created_at, updated_at) VALUES (1, 2, 50, ?, ?)",
  )
    .run(NOW, NOW);
}

function checkUpgraded(store: Store): void {
  assertEquals(store.keys.list().map((k) => [k.name, k.groupId, k.limits.rpm, k.expiresAt, k.lastUsedAt]), [
    ["ci", null, null, null, null],
    ["ci", null, null, null, null],
    ["ops", null, null, null, null],
  ]);
  assertEquals(store.budgets.list().map((b) => [b.keyId, b.dailyLimit, b.warnPct]), [[null, 10, 80], [
    1,
    2,
    50,
  ]]);
  assertEquals(store.budgets.listAll().map((b) => [b.scope.kind, b.period, b.hardStop, b.webhook]), [
    ["global", "day", true, null],
    ["key", "day", true, null],
  ]);
  // Duplicates from before stay; renaming one to a taken name is refused from now on, keeping its own is fine.
  assertEquals(store.keys.update(2, { name: "ci", canLogin: false }, NOW)?.canLogin, false);
  store.budgets.upsert({ scope: { kind: "key", keyId: 1 }, period: "month", limit: 40, warnPct: 80 }, NOW);
  store.budgets.set(1, 3, 50, NOW);
  assertEquals(
    store.budgets.listAll().filter((b) => b.scope.kind === "key").map((b) => [b.period, b.limit]),
    [
      ["day", 3],
      ["month", 40],
    ],
  );
}

Deno.test("migration 0020 on SQLite keeps existing keys and daily budgets", () => {
  const db = new DatabaseSync(":memory:");
  migrate(db, loadMigrations().filter((m) => m.version < 20));
  seedOld(db);
  migrate(db);
  const store = new Store(db, box);
  try {
    checkUpgraded(store);
  } finally {
    store.close();
  }
});

Deno.test({
  name: "migration 0020 on PostgreSQL keeps existing keys and daily budgets",
  ignore: postgresSkip("migration 0020"),
  async fn() {
    const url = await (await testPostgres()).newDatabase();
    const db = PgDatabase.connect(url);
    migratePostgres(db, loadPgMigrations().filter((m) => m.version < 20));
    seedOld(db);
    // 0020 and every migration after it apply on top of the old schema.
    assertEquals(migratePostgres(db), loadPgMigrations().filter((m) => m.version >= 20).length);
    const store = new Store(db, box);
    try {
      checkUpgraded(store);
    } finally {
      store.close();
    }
  },
});
