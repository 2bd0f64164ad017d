import { MAX_CACHED_STATEMENTS, openDatabase } from "../../src/storage/database.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

Deno.test("openDatabase compiles a statement once per SQL text and keeps the most recently used ones", () => {
  const db = openDatabase(":memory:");
  try {
    const first = db.prepare("SELECT 1 AS one");
    assert(db.prepare("SELECT 1 AS one") === first, "the same SQL gives the compiled statement back");
    assertEquals(first.get(), { one: 1 });
    // Fill the cache with other SQL, using `first` halfway: it stays, the oldest of the rest goes.
    const oldest = db.prepare("SELECT 2 AS two");
    for (let i = 0; i < MAX_CACHED_STATEMENTS; i++) {
      db.prepare(`SELECT ${i + 10} AS n`);
      if (i === MAX_CACHED_STATEMENTS / 2) db.prepare("SELECT 1 AS one");
    }
    assert(db.prepare("SELECT 1 AS one") === first, "a recently used statement is kept");
    assert(db.prepare("SELECT 2 AS two") !== oldest, "the least recently used statement was dropped");
  } finally {
    db.close();
  }
});

Deno.test("a kept statement rebinds every run and holds no read snapshot after a loop leaves it early", () => {
  const dir = Deno.makeTempDirSync();
  const writer = openDatabase(`${dir}/g.db`);
  const reader = openDatabase(`${dir}/g.db`);
  try {
    writer.exec("CREATE TABLE t (x INTEGER)");
    for (let i = 0; i < 20; i++) writer.prepare("INSERT INTO t (x) VALUES (?)").run(i);
    // Parameters not given this time read as NULL, not as the last run's.
    assertEquals(reader.prepare("SELECT ? AS a, ? AS b").get(1, 2), { a: 1, b: 2 });
    assertEquals(reader.prepare("SELECT ? AS a, ? AS b").get(3), { a: 3, b: null });
    for (const row of reader.prepare("SELECT x FROM t ORDER BY x").iterate() as Iterable<{ x: number }>) {
      if (row.x > 3) break;
    }
    writer.prepare("INSERT INTO t (x) VALUES (?)").run(100);
    // A reader still inside its snapshot would keep the WAL from being checkpointed whole (busy 1).
    const checkpoint = writer.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number };
    assertEquals(checkpoint.busy, 0);
    assertEquals((reader.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n, 21);
  } finally {
    reader.close();
    writer.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
