import { DatabaseSync } from "node:sqlite";
import { loadMigrations, migrate, splitStatements } from "../../src/storage/migrate.ts";
import { openDatabase } from "../../src/storage/database.ts";
import type { SqlDatabase } from "../../src/storage/sql.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { loadPgMigrations, PgDatabase } from "../../src/storage/mod.ts";
import { migratePostgres } from "../../src/storage/postgres/pg_migrate.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const SPEC_TABLES = [
  "api_keys",
  "usage",
  "budgets",
  "providers",
  "combos",
  "settings",
  "pricing_overrides",
  "cooldowns",
  "inventory_providers",
  "upstream_keys",
  "upstream_models",
  "upstream_key_history",
  "request_logs",
];

function tables(db: SqlDatabase): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
    .map((r) => r.name);
}

Deno.test("openDatabase() creates every table the spec names, in WAL mode", () => {
  const dir = Deno.makeTempDirSync();
  const db = openDatabase(`${dir}/g.db`);
  const present = tables(db);
  for (const table of SPEC_TABLES) assert(present.includes(table), `missing table ${table}`);
  assertEquals((db.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode, "wal");
  db.close();
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("migrate() re-run on an up-to-date database applies nothing and keeps data", () => {
  const db = new DatabaseSync(":memory:");
  const first = migrate(db);
  assert(first >= 1);
  db.prepare("INSERT INTO settings (key, value) VALUES ('combo_strategy', 'fusion')").run();
  assertEquals(migrate(db), 0);
  // Even when user_version is lost, re-running every migration is safe.
  db.exec("PRAGMA user_version = 0");
  assertEquals(migrate(db), first);
  assertEquals(db.prepare("SELECT value FROM settings WHERE key = 'combo_strategy'").get(), {
    value: "fusion",
  });
  db.close();
});

Deno.test("migrate() adds a missing column and skips one that already exists", () => {
  const db = new DatabaseSync(":memory:");
  migrate(db);
  const version = loadMigrations().at(-1)!.version;
  const addColumn = [{
    version: version + 1,
    name: "x_add.sql",
    sql: "ALTER TABLE combos ADD COLUMN note TEXT;",
  }];
  assertEquals(migrate(db, addColumn), 1);
  const columns = (db.prepare("PRAGMA table_info(combos)").all() as { name: string }[]).map((c) => c.name);
  assert(columns.includes("note"));
  db.exec(`PRAGMA user_version = ${version}`);
  assertEquals(migrate(db, addColumn), 1, "a duplicate column is skipped, not an error");
  db.close();
});

Deno.test("migrate() deletes legacy dashboard username/password settings", () => {
  const db = new DatabaseSync(":memory:");
  migrate(db);
  db.prepare("INSERT INTO settings (key, value) VALUES ('dashboard_password_hash', 'x'), ('k', 'v')").run();
  migrate(db);
  assertEquals(db.prepare("SELECT key FROM settings").all(), [{ key: "k" }]);
  db.close();
});

Deno.test("splitStatements() splits at line-ending semicolons and drops comments", () => {
  assertEquals(splitStatements("-- c\nCREATE TABLE a (x);\n\nCREATE INDEX i ON a (x);"), [
    "CREATE TABLE a (x)",
    "CREATE INDEX i ON a (x)",
  ]);
});

Deno.test("migration 0028 lists the requests captured before it: each log row gets an index row and a uid", () => {
  const db = new DatabaseSync(":memory:");
  const all = loadMigrations();
  migrate(db, all.filter((m) => m.version < 28));
  db.prepare(
    `INSERT INTO request_logs (ts, client_format, model, provider_id, account_id, status, latency_ms, streamed,
       "user", request_body, response_body, error) VALUES (?, 'messages', 'p/m1', 'acct-a', 'acct-a', ?, 40, 1,
       'ci', '{}', 'hi', ?)`,
  ).run(1_700_000_000_000, 502, "upstream broke");
  migrate(db, all);
  const [log] = db.prepare("SELECT id, uid FROM request_logs").all() as { id: number; uid: string }[];
  assertEquals(log.uid, `log-${log.id}`);
  const rows = db.prepare(
    'SELECT uid, ts, client_format, model, status, status_class, streamed, "client_key_label", error, attempts FROM requests',
  ).all();
  assertEquals(rows.map((r) => ({ ...r })), [{
    uid: log.uid,
    ts: 1_700_000_000_000,
    client_format: "messages",
    model: "p/m1",
    status: 502,
    status_class: 5,
    streamed: 1,
    client_key_label: "ci",
    error: "upstream broke",
    attempts: 1,
  }]);
  db.close();
});

const KIND_DAY = 20_000;

/** Two usage rows of one day (chat and embeddings) and the one rollup group the writer kept before 0032. */
function seedBeforeKinds(db: { exec(sql: string): void }): void {
  for (
    const [format, input, output, cost] of [["chat_completions", 10, 5, 1], [
      "embeddings",
      30,
      0,
      0.5,
    ]] as const
  ) {
    db.exec(
      `INSERT INTO usage (ts, client_format, model, provider_id, account_id, client_key_label, status, input_tokens,
         output_tokens, cost) VALUES (${
        KIND_DAY * 86_400_000 + 5
      }, '${format}', 'p/m1', 'acct-a', 'acct-a', 'ci', 200,
         ${input}, ${output}, ${cost})`,
    );
  }
  db.exec(
    `INSERT INTO usage_daily (day, model, provider_id, account_id, client_key_id, client_key_label, requests,
       ok_requests, input_tokens, output_tokens, cost)
     VALUES (${KIND_DAY}, 'p/m1', 'acct-a', 'acct-a', 0, 'ci', 2, 2, 40, 5, 1.5)`,
  );
}

/** After 0032: each row has its kind, and the rollup one group per kind. */
function checkKinds(db: { prepare(sql: string): { all(): unknown[] } }): void {
  // PostgreSQL's BIGINT columns read as bigint.
  const plain = (sql: string) =>
    db.prepare(sql).all().map((r) =>
      Object.fromEntries(
        Object.entries(r as Record<string, unknown>).map((
          [k, v],
        ) => [k, typeof v === "bigint" ? Number(v) : v]),
      )
    );
  assertEquals(plain("SELECT client_format, kind FROM usage ORDER BY id"), [
    { client_format: "chat_completions", kind: "chat" },
    { client_format: "embeddings", kind: "embedding" },
  ]);
  assertEquals(
    plain("SELECT day, kind, requests, ok_requests, input_tokens, cost FROM usage_daily ORDER BY kind"),
    [
      { day: KIND_DAY, kind: "chat", requests: 1, ok_requests: 1, input_tokens: 10, cost: 1 },
      { day: KIND_DAY, kind: "embedding", requests: 1, ok_requests: 1, input_tokens: 30, cost: 0.5 },
    ],
  );
}

Deno.test("migration 0032 gives usage rows their kind and rebuilds the daily rollup by kind", () => {
  const db = new DatabaseSync(":memory:");
  const all = loadMigrations();
  migrate(db, all.filter((m) => m.version < 32));
  seedBeforeKinds(db);
  migrate(db, all);
  checkKinds(db);
  db.close();
});

Deno.test({
  name: "migration 0032 on PostgreSQL gives usage rows their kind and rebuilds the daily rollup by kind",
  ignore: postgresSkip("migration 0032"),
  async fn() {
    const db = PgDatabase.connect(await (await testPostgres()).newDatabase());
    try {
      migratePostgres(db, loadPgMigrations().filter((m) => m.version < 32));
      seedBeforeKinds(db);
      migratePostgres(db);
      checkKinds(db);
    } finally {
      db.close();
    }
  },
});
