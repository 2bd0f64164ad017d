import { assert, assertEquals } from "../helpers/assert.ts";
import { BatchedWriter } from "../../src/gateway/batched_writer.ts";
import { AFFINITY_MAX_ENTRIES, AFFINITY_TTL_MS, CacheAffinity } from "../../src/gateway/cache_affinity.ts";
import { loadSecretBox, Store } from "../../src/storage/mod.ts";

function openStore(dir: string): Store {
  return Store.open(`${dir}/gateway.db`, loadSecretBox(`${dir}/secret.key`, undefined));
}

Deno.test("CacheAffinity: bindings persist in batches, expire after the TTL, and the table is pruned", () => {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-affinity-store-" });
  try {
    const now = Date.UTC(2026, 10, 25, 12);
    const store = openStore(dir);
    const writer = new BatchedWriter(store);
    const affinity = new CacheAffinity(store, writer, now);
    const key = CacheAffinity.hash("p", "conv");
    assert(/^[0-9a-f]{40}$/.test(key));
    affinity.bind(key, "a1", now);
    affinity.bind(key, "a1", now + 1000); // a touch within 5 minutes writes nothing new
    affinity.bind(CacheAffinity.hash("p", "old"), "a2", now - AFFINITY_TTL_MS - 1);
    writer.flush();
    assertEquals(store.cacheAffinity.recent(0, 10).map((r) => [r.accountId, r.usedAt]), [
      ["a2", now - AFFINITY_TTL_MS - 1],
      ["a1", now],
    ]);
    assertEquals(affinity.lookup(key, now + AFFINITY_TTL_MS - 1), "a1");
    assertEquals(affinity.lookup(CacheAffinity.hash("p", "old"), now), undefined);
    writer.close();
    store.close();
    // A restart loads live bindings and prunes expired rows.
    const reopened = openStore(dir);
    const again = new CacheAffinity(reopened, new BatchedWriter(reopened), now + 2000);
    assertEquals(again.lookup(key, now + 2000), "a1");
    assertEquals(reopened.cacheAffinity.recent(0, 10).length, 1);
    assertEquals(again.countsByAccount(now + 2000), new Map([["a1", 1]]));
    reopened.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("CacheAffinity: the in-memory map keeps at most AFFINITY_MAX_ENTRIES, dropping the least recent", () => {
  const dir = Deno.makeTempDirSync({ prefix: "gateway-affinity-lru-" });
  try {
    const now = Date.UTC(2026, 10, 25, 12);
    const store = openStore(dir);
    const writer = new BatchedWriter(store);
    const affinity = new CacheAffinity(store, writer, now);
    for (let i = 0; i <= AFFINITY_MAX_ENTRIES; i++) affinity.bind(`k${i}`, "a", now);
    assertEquals(affinity.lookup("k0", now), undefined);
    assertEquals(affinity.lookup(`k${AFFINITY_MAX_ENTRIES}`, now), "a");
    writer.close();
    store.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
