/**
 * Two gateway processes' rate limiters sharing one key's limit through the database (rate_counts), on
 * SQLite (two connections to one file) and PostgreSQL (two connections to one database), with a fake clock:
 * each ticks every 50 ms at its own phase, and a burst of 200 requests lands on both.
 */
import { RateLimiter, type RateLimits } from "../../src/accounting/mod.ts";
import { RateLimitSync } from "../../src/gateway/rate_limit_sync.ts";
import { openDatabase, SecretBox, Store } from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const T0 = Date.parse("2026-11-28T06:00:00Z");
const RPM60: RateLimits = { rpm: 60, tpm: null, maxParallel: null };
const box = new SecretBox(new Uint8Array(32).fill(3));

function burst(stores: [Store, Store]): { admitted: number; perProcess: number[] } {
  let now = T0;
  const processes = stores.map((store, i) => {
    const limiter = new RateLimiter();
    const sync = new RateLimitSync({
      limiter,
      repo: store.rateCounts,
      origin: `worker-${i + 1}`,
      processes: () => 2,
      limitsOf: () => RPM60,
      now: () => now,
    });
    return { limiter, sync, phase: i * 23, admitted: 0 };
  });
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const arrivals = Array.from({ length: 200 }, () => T0 + Math.floor(random() * 400)).sort((a, b) => a - b);
  let next = 0;
  for (; now <= T0 + 600; now++) {
    for (const p of processes) if ((now - T0 - p.phase) % 50 === 0) p.sync.tick();
    while (next < arrivals.length && arrivals[next] === now) {
      const p = processes[Math.floor(random() * 2)];
      if (p.limiter.check("key:7", RPM60, 0, now).allowed) p.admitted++;
      next++;
    }
  }
  for (const p of processes) p.sync.stop();
  assertEquals(stores[0].rateCounts.others("nobody", 0), [], "stopping removes a process's rows");
  const perProcess = processes.map((p) => p.admitted);
  return { admitted: perProcess[0] + perProcess[1], perProcess };
}

function check(stores: [Store, Store]): void {
  const { admitted, perProcess } = burst(stores);
  // 60 + what refills in the 0.6 s the burst and its last tick take (0.6 requests) + (W - 1) = 1.
  assert(admitted <= 62, `admitted ${admitted} (${perProcess})`);
  assert(admitted >= 50, `admitted only ${admitted} (${perProcess})`);
  assert(perProcess.every((n) => n > 0), "both processes took part");
}

Deno.test("rate limits across two processes on one SQLite file: RPM 60, a burst of 200 admits at most 62", () => {
  const dir = Deno.makeTempDirSync();
  const a = new Store(openDatabase(`${dir}/g.db`), box);
  const b = new Store(openDatabase(`${dir}/g.db`), box);
  try {
    check([a, b]);
  } finally {
    a.close();
    b.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "rate limits across two instances on one PostgreSQL: RPM 60, a burst of 200 admits at most 62",
  ignore: postgresSkip("rate limits across instances"),
  async fn() {
    const url = await (await testPostgres()).newDatabase();
    const dir = await Deno.makeTempDir();
    const a = Store.openWithSecret(url, `${dir}/secret.key`, undefined);
    const b = Store.openWithSecret(url, `${dir}/secret.key`, undefined);
    try {
      check([a, b]);
    } finally {
      a.close();
      b.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("RateLimitSync alone reads and writes nothing; nextTick() resolves at the next tick", async () => {
  const store = new Store(openDatabase(":memory:"), box);
  try {
    const limiter = new RateLimiter();
    const sync = new RateLimitSync({
      limiter,
      repo: store.rateCounts,
      origin: "solo",
      processes: () => 1,
      limitsOf: () => RPM60,
      now: () => T0,
    });
    limiter.check("key:1", RPM60, 0, T0);
    const woken = sync.nextTick();
    sync.tick();
    await woken;
    assertEquals(store.rateCounts.others("x", 0), []);
    sync.stop();
  } finally {
    store.close();
  }
});
