/**
 * Three processes on one PostgreSQL database, deterministically interleaved: the first publishes inside a
 * transaction it has not committed yet (so its event takes the lower id), the second publishes and
 * commits, the third reads, then the first commits. The third must still receive the first's message
 * (a spend or cooldown lost this way is never recovered), exactly once, woken by NOTIFY both times.
 */
import { ClusterSync } from "../../src/gateway/cluster_sync.ts";
import { Store } from "../../src/storage/mod.ts";
import { assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";
import { waitFor } from "../helpers/wait.ts";

async function nextSignal(store: Store, seen: number | null): Promise<void> {
  await waitFor(() => store.changeSignal() !== seen, { what: "a NOTIFY" });
}

Deno.test({
  name:
    "cluster sync on PostgreSQL: a message committed late with a lower id reaches every other process once",
  ignore: postgresSkip("cluster sync, three processes"),
  async fn() {
    const url = await (await testPostgres()).newDatabase();
    const dir = await Deno.makeTempDir();
    const stores = [0, 1, 2].map(() => Store.openWithSecret(url, `${dir}/secret.key`, undefined));
    const received: number[][] = [[], [], []];
    const syncs = stores.map((store, i) =>
      new ClusterSync(store.cluster, `p${i}`, Date.now, () => store.changeSignal())
    );
    const channels = syncs.map((sync, i) => sync.channel<number>("spend", (m) => received[i].push(...m)));
    const [slow, , reader] = stores;
    try {
      for (const sync of syncs) sync.tick(); // first read of each: nothing yet

      slow.db.exec("BEGIN");
      channels[0].publishNow(1);
      let seen = reader.changeSignal();
      channels[1].publishNow(2);
      await nextSignal(reader, seen);
      syncs[2].tick();
      assertEquals(received[2], [2]);

      seen = reader.changeSignal();
      slow.db.exec("COMMIT");
      await nextSignal(reader, seen);
      syncs[2].tick();
      assertEquals(received[2], [2, 1], "the late commit is delivered");

      // The first two are woken by their own NOTIFYs, whenever those arrive; ticking more often than
      // needed must not deliver anything twice.
      await waitFor(() => {
        for (const sync of syncs) sync.tick();
        return received[0].length > 0 && received[1].length > 0;
      }, { what: "the first two processes to receive the other's message" });
      for (const sync of syncs) sync.tick();
      assertEquals(
        received,
        [[2], [1], [2, 1]],
        "each process gets the others' messages once, none of its own",
      );
    } finally {
      for (const sync of syncs) sync.stop();
      for (const store of stores) store.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
