import { DatabaseSync } from "node:sqlite";
import {
  type Database,
  loadPgMigrations,
  openDatabase,
  PgDatabase,
  type StoredResponseRow,
  StoredResponsesRepo,
} from "../../src/storage/mod.ts";
import { migratePostgres } from "../../src/storage/postgres/pg_migrate.ts";
import { ORPHAN_PART_MS } from "../../src/storage/stored_responses_repo.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import { loadMigrations, migrate } from "../../src/storage/migrate.ts";
import { assertEquals } from "../helpers/assert.ts";

function row(owner: string, id: string, createdAt: number, expiresAt: number, bytes = 10): StoredResponseRow {
  return {
    owner,
    id,
    createdAt,
    expiresAt,
    accountId: "a-1",
    upstreamKept: false,
    inputItems: "[]",
    response: "x".repeat(bytes),
    items: [{ id: `msg_${id}`, item: `{"id":"msg_${id}"}` }],
  };
}

Deno.test("StoredResponsesRepo.prune() deletes expired responses and their items, and nothing else", () => {
  const db = openDatabase(":memory:");
  const repo = new StoredResponsesRepo(db);
  repo.put(row("key:1", "resp_old", 0, 100));
  repo.put(row("key:1", "resp_new", 50, 200));
  assertEquals(repo.prune(150), 1);
  // Read with an earlier clock: only the sweep could have removed the row.
  assertEquals(repo.get("key:1", "resp_old", 0), null);
  assertEquals(repo.item("key:1", "msg_resp_old", 0), null);
  assertEquals(repo.get("key:1", "resp_new", 150)?.accountId, "a-1");
  assertEquals(repo.item("key:1", "msg_resp_new", 150), '{"id":"msg_resp_new"}');
  db.close();
});

Deno.test("StoredResponsesRepo.trim() drops an owner's oldest responses until it fits, and no other owner's", () => {
  const db = openDatabase(":memory:");
  const repo = new StoredResponsesRepo(db);
  for (let i = 0; i < 4; i++) repo.put(row("key:1", `resp_${i}`, i, 1000, 100));
  repo.put(row("key:2", "resp_other", 0, 1000, 100));
  assertEquals(repo.trim("key:1", 250), 2);
  assertEquals(["resp_0", "resp_1", "resp_2", "resp_3"].map((id) => repo.get("key:1", id, 0) !== null), [
    false,
    false,
    true,
    true,
  ]);
  assertEquals(repo.get("key:2", "resp_other", 0) !== null, true);
  assertEquals(repo.get("key:2", "resp_0", 0), null);
  db.close();
});

/** Each owner's bytes as the rows say (what stored_response_owners must always equal). */
function summed(db: Database): Record<string, number> {
  const rows = db.prepare("SELECT owner, SUM(bytes) AS bytes FROM stored_responses GROUP BY owner").all() as {
    owner: string;
    bytes: number;
  }[];
  return Object.fromEntries(rows.map((r) => [r.owner, Number(r.bytes)]));
}

/**
 * Seeded puts (new and replacing), deletes, prunes and trims over three owners; after each, every owner's
 * kept total must equal its rows' bytes.
 */
function checkOwnerTotals(db: Database, steps: number): void {
  const repo = new StoredResponsesRepo(db);
  const owners = ["key:1", "key:2", "static:ci"];
  // A plain LCG's low bits repeat with a short period, and `% n` of them skipped whole branches.
  const next = mulberry32(20261128);
  const random = (n: number) => Math.floor(next() * n);
  let clock = 0;
  const counts = { put: 0, replace: 0, delete: 0, prune: 0, trim: 0 };
  for (let step = 0; step < steps; step++) {
    const owner = owners[random(owners.length)];
    const id = `resp_${random(60)}`;
    const op = random(20);
    clock++;
    if (op < 12) {
      if (repo.get(owner, id, 0) !== null) counts.replace++;
      repo.put(row(owner, id, clock, clock + 20 + random(300), 1 + random(300)));
      counts.put++;
    } else if (op < 15) {
      if (repo.delete(owner, id)) counts.delete++;
    } else if (op < 17) {
      counts.prune += repo.prune(clock);
    } else {
      counts.trim += repo.trim(owner, random(1500));
    }
    const expected = summed(db);
    for (const o of owners) assertEquals(repo.ownerBytes(o), expected[o] ?? 0, `${o} after step ${step}`);
  }
  // Every kind of change really happened.
  for (const [op, n] of Object.entries(counts)) assertEquals(n > steps / 150, true, `${op}: ${n}`);
}

Deno.test("StoredResponsesRepo keeps each owner's total equal to its rows' bytes through seeded puts, replacements, deletes, prunes and trims", () => {
  const db = openDatabase(":memory:");
  checkOwnerTotals(db, 3000);
  db.close();
});

Deno.test({
  name: "StoredResponsesRepo on PostgreSQL: migration 0033 fills the totals, and every write keeps them",
  ignore: postgresSkip("stored response totals"),
  async fn() {
    const db = PgDatabase.connect(await (await testPostgres()).newDatabase());
    try {
      migratePostgres(db, loadPgMigrations().filter((m) => m.version < 33));
      const insert = db.prepare(
        `INSERT INTO stored_responses (owner, id, created_at, expires_at, bytes, input_items, response)
         VALUES (?, ?, 0, 1000, ?, '[]', '{}')`,
      );
      insert.run("key:1", "resp_a", 120);
      insert.run("key:1", "resp_b", 30);
      migratePostgres(db);
      assertEquals(new StoredResponsesRepo(db).ownerBytes("key:1"), 150);
      db.exec("DELETE FROM stored_responses");
      db.exec("DELETE FROM stored_response_owners");
      checkOwnerTotals(db, 600);
    } finally {
      db.close();
    }
  },
});

Deno.test("StoredResponsesRepo.trim() reads the oldest in batches: 150 responses trimmed to fit 10", () => {
  const db = openDatabase(":memory:");
  const repo = new StoredResponsesRepo(db);
  for (let i = 0; i < 150; i++) repo.put(row("key:1", `resp_${String(i).padStart(3, "0")}`, i, 1e9, 100));
  const each = repo.ownerBytes("key:1") / 150;
  assertEquals(repo.trim("key:1", each * 10), 140);
  assertEquals(repo.ownerBytes("key:1"), each * 10);
  assertEquals(repo.get("key:1", "resp_139", 0), null);
  assertEquals(repo.get("key:1", "resp_140", 0)?.id, "resp_140");
  assertEquals(repo.trim("key:1", each * 10), 0);
  db.close();
});

Deno.test("migration 0033 fills each owner's total from the responses stored before it", () => {
  const db = new DatabaseSync(":memory:");
  const migrations = loadMigrations();
  migrate(db, migrations.filter((m) => m.version < 33));
  const insert = db.prepare(
    `INSERT INTO stored_responses (owner, id, created_at, expires_at, bytes, input_items, response)
     VALUES (?, ?, 0, 1000, ?, '[]', '{}')`,
  );
  insert.run("key:1", "resp_a", 120);
  insert.run("key:1", "resp_b", 30);
  insert.run("anonymous", "resp_c", 7);
  migrate(db, migrations);
  const repo = new StoredResponsesRepo(db);
  assertEquals([repo.ownerBytes("key:1"), repo.ownerBytes("anonymous"), repo.ownerBytes("key:9")], [
    150,
    7,
    0,
  ]);
  // Run again (a lost user_version): the totals are computed again, not added twice.
  db.exec("PRAGMA user_version = 32");
  migrate(db, migrations);
  assertEquals(repo.ownerBytes("key:1"), 150);
  db.close();
});

/** A big conversation's parts live and die with the row that names them; parts no row names are swept. */
function checkParts(db: Database): void {
  const repo = new StoredResponsesRepo(db);
  const staged = (stage: string, texts: string[], at: number) => {
    texts.forEach((text, seq) => repo.putPart(stage, seq, text, at));
    return { stage, count: texts.length, chars: texts.join("").length };
  };
  // Named by a row: read back by part, counted toward the owner's total by its characters.
  repo.put({
    ...row("key:1", "resp_a", 0, 1e12),
    inputItems: staged("stage-a", ['[{"a":"', "é😀", '"}]'], 0),
  });
  assertEquals(repo.get("key:1", "resp_a", 0)?.inputItems, { stage: "stage-a", count: 3 });
  assertEquals(repo.part("stage-a", 1), "é😀");
  assertEquals(repo.ownerBytes("key:1"), '[{"a":"é😀"}]'.length + 10 + '{"id":"msg_resp_a"}'.length);
  // Replaced by an inline row: the parts go.
  repo.put(row("key:1", "resp_a", 0, 1e12));
  assertEquals(repo.part("stage-a", 0), null);
  assertEquals(repo.get("key:1", "resp_a", 0)?.inputItems, "[]");
  // Deleted, trimmed or expired: the parts go with the row.
  repo.put({ ...row("key:1", "resp_b", 1, 1e12), inputItems: staged("stage-b", ["[]"], 1) });
  repo.put({ ...row("key:2", "resp_c", 2, 1e12), inputItems: staged("stage-c", ["[", "]"], 2) });
  repo.put({ ...row("key:3", "resp_d", 3, 500), inputItems: staged("stage-d", ["[]"], 3) });
  assertEquals(repo.delete("key:1", "resp_b"), true);
  assertEquals(repo.part("stage-b", 0), null);
  assertEquals(repo.trim("key:2", 0), 1);
  assertEquals(repo.part("stage-c", 1), null);
  // Parts of a save cut short stay for an hour (a save may still be writing them), then go; parts a live
  // row names stay however old they are.
  staged("stage-orphan", ["[", "]"], 1000);
  repo.put({ ...row("key:4", "resp_e", 4, 1e12), inputItems: staged("stage-e", ["[]"], 4) });
  assertEquals(repo.prune(1000 + ORPHAN_PART_MS - 1), 1);
  assertEquals(repo.part("stage-d", 0), null);
  assertEquals(repo.part("stage-orphan", 0), "[");
  repo.prune(1000 + ORPHAN_PART_MS);
  assertEquals(repo.part("stage-orphan", 0), null);
  assertEquals(repo.part("stage-e", 0), "[]");
  // A save that gives up drops what it wrote.
  staged("stage-given-up", ["[", "]"], 5);
  repo.dropStage("stage-given-up");
  assertEquals(repo.part("stage-given-up", 0), null);
}

Deno.test("StoredResponsesRepo keeps a big conversation's parts with the row that names them, and sweeps orphans", () => {
  const db = openDatabase(":memory:");
  checkParts(db);
  db.close();
});

Deno.test({
  name: "StoredResponsesRepo on PostgreSQL keeps parts with their row and sweeps orphans",
  ignore: postgresSkip("stored response parts"),
  async fn() {
    const db = PgDatabase.connect(await (await testPostgres()).newDatabase());
    try {
      migratePostgres(db);
      checkParts(db);
    } finally {
      db.close();
    }
  },
});
