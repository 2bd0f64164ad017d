/**
 * Cluster events on PostgreSQL: writers on different connections take ids from one sequence but commit
 * in any order. A reader must still see every event exactly once, including one whose transaction took a
 * lower id and committed after the reader had already read a higher one (reading `id > last` loses it).
 */
import { Store } from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

Deno.test({
  name: "cluster cursor on PostgreSQL: an event committed late with a lower id is delivered once",
  ignore: postgresSkip("cluster cursor"),
  async fn() {
    const url = await (await testPostgres()).newDatabase();
    const dir = await Deno.makeTempDir();
    const [slow, fast, reader] = [0, 1, 2].map(() =>
      Store.openWithSecret(url, `${dir}/secret.key`, undefined)
    );
    try {
      const cursor = reader.cluster.cursor();
      slow.db.exec("BEGIN");
      slow.cluster.publish("slow", "spend", "[1]", 1); // takes the lower id, not yet committed
      fast.cluster.publish("fast", "spend", "[2]", 1); // takes the higher id, committed at once
      assertEquals(cursor.next("reader").map((e) => e.origin), ["fast"]);
      assertEquals(cursor.next("reader"), [], "still running: carried over to the next read's snapshot");
      fast.cluster.publish("fast", "spend", "[2b]", 1);
      assertEquals(cursor.next("reader").map((e) => e.payload), ["[2b]"]);
      slow.db.exec("COMMIT");

      const late = cursor.next("reader");
      assertEquals(late.map((e) => e.origin), ["slow"], "the late commit is read, the early one not again");
      const ids = reader.db.prepare("SELECT id, origin FROM cluster_events ORDER BY id").all() as {
        id: number;
        origin: string;
      }[];
      assertEquals(ids.map((r) => r.origin), ["slow", "fast", "fast"]);
      assert(late[0].id < ids[1].id, "the late event has the lower id: `id > last` would have skipped it");
      assertEquals(cursor.next("reader"), [], "nothing is delivered twice");

      // A transaction that rolls back leaves nothing behind, and the window moves on past it.
      slow.db.exec("BEGIN");
      slow.cluster.publish("slow", "spend", "[3]", 1);
      fast.cluster.publish("fast", "spend", "[4]", 1);
      slow.db.exec("ROLLBACK");
      assertEquals(cursor.next("reader").map((e) => e.payload), ["[4]"]);
      assertEquals(cursor.next("reader"), []);
    } finally {
      for (const store of [slow, fast, reader]) store.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
