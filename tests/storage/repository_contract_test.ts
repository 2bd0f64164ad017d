/**
 * The repository contract, run against both databases: every repository gives the same answers on
 * SQLite (the embedded default) and on PostgreSQL (a throwaway cluster; skipped with the reason only
 * where the server binaries are missing).
 */
import { openDatabase, SecretBox, Store, type UsageRow } from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const DAY = 86_400_000;
const NOW = 20_000 * DAY + 3_600_000;
const box = new SecretBox(new Uint8Array(32).fill(7));

function usage(overrides: Partial<UsageRow>): UsageRow {
  return {
    ts: NOW,
    clientFormat: "chat_completions",
    requestModel: "p/m1",
    model: "p/m1",
    providerId: "a",
    accountId: "a",
    clientKeyId: null,
    clientKeyLabel: "(no key)",
    status: 200,
    inputTokens: 10,
    cacheReadTokens: 2,
    cacheCreationTokens: 1,
    outputTokens: 5,
    reasoningTokens: 0,
    estimated: false,
    cost: 0.25,
    priced: true,
    latencyMs: 3,
    streamed: false,
    error: "",
    ...overrides,
  };
}

/** Each check takes a fresh store. */
const checks: Record<string, (store: Store) => void> = {
  "providers: upsert keeps position and seals the key; delete reports whether it existed"(store) {
    const provider = {
      id: "a",
      prefix: "p",
      apiType: "chat_compat" as const,
      baseUrl: "http://x",
      models: ["m1"],
    };
    store.providers.upsert({ ...provider, apiKey: "sk-secret-1", enabled: true }, NOW);
    store.providers.upsert({ ...provider, id: "b", apiKey: "", enabled: false }, NOW);
    store.providers.upsert({ ...provider, apiKey: "sk-secret-2", enabled: true, models: ["m2"] }, NOW + 1);
    assertEquals(store.providers.list().map((p) => [p.id, p.enabled, p.models]), [["a", true, ["m2"]], [
      "b",
      false,
      ["m1"],
    ]]);
    assertEquals(store.providers.get("a")?.apiKey, "sk-secret-2");
    const raw = store.db.prepare("SELECT api_key FROM providers WHERE id = ?").get("a") as {
      api_key: string;
    };
    assert(raw.api_key.startsWith("enc:v1:"), "sealed at rest");
    assertEquals(store.providers.delete("b"), true);
    assertEquals(store.providers.delete("b"), false);
  },
  "combos, pricing, settings: create, update, delete, count"(store) {
    const id = store.combos.create({ name: "team", models: ["p/m1", "p/m2"] }, NOW);
    assertEquals(store.combos.update(id, { name: "team", models: ["p/m2"] }, NOW), true);
    assertEquals(store.combos.list().map((c) => c.models), [["p/m2"]]);
    assertEquals(store.combos.delete(id), true);
    assertEquals(store.combos.count(), 0);
    store.pricing.upsert("m1", {
      inputPerMtok: 1.5,
      outputPerMtok: 2,
      cacheCreationPerMtok: 0,
      cacheReadPerMtok: 0.1,
    }, NOW);
    assertEquals(store.pricing.all().m1.inputPerMtok, 1.5);
    assertEquals(store.pricing.delete("m1"), true);
    store.settings.set("server_require_api_key", "true");
    store.settings.set("server_require_api_key", "false");
    assertEquals(store.settings.all().get("server_require_api_key"), "false");
  },
  "api keys and budgets: RETURNING ids, revoke, one budget per scope"(store) {
    const key = store.keys.create(
      { name: "k", keyHash: "h1", prefix: "sk-gw-1", canLogin: true, allowedModels: ["p/*"] },
      NOW,
    );
    assert(key.id > 0);
    assertEquals(store.keys.get(key.id)?.allowedModels, ["p/*"]);
    assertEquals(store.keys.revoke(key.id, NOW), true);
    assertEquals(store.keys.get(key.id)?.status, "revoked");
    store.budgets.set(null, 5, 80, NOW);
    store.budgets.set(null, 7, 90, NOW);
    store.budgets.set(key.id, 1, 80, NOW);
    assertEquals(store.budgets.list().map((b) => [b.keyId, b.dailyLimit]).sort(), [[1, 1], [null, 7]].sort());
  },
  "usage: rows, the daily rollup, spend and totals agree"(store) {
    store.transaction(() =>
      store.usage.insert([
        usage({}),
        usage({ status: 429, cost: 0, inputTokens: 0, outputTokens: 0 }),
        usage({ clientKeyId: 4, clientKeyLabel: "k4", cost: 1.5, ts: NOW + 10 }),
        usage({ ts: NOW - DAY, cost: 9 }),
      ])
    );
    assertEquals(store.usage.count(), 4);
    const spend = store.usage.spendSince(NOW - 1000);
    assertEquals(Math.round(spend.total * 100) / 100, 1.75);
    assertEquals(spend.byKey.get(4), 1.5);
    const today = store.usageStats.totals(Math.floor(NOW / DAY));
    assertEquals([today.requests, today.okRequests, today.clientErrors], [3, 2, 1]);
    const since = store.usageStats.totalsSince(NOW - 1000);
    assertEquals([since.requests, since.okRequests, since.clientErrors, since.serverErrors], [3, 2, 1, 0]);
    assertEquals(store.usageStats.daily(Math.floor(NOW / DAY) - 1).map((d) => d.requests), [1, 3]);
  },
  "cooldowns and request logs: apply, clear, prune, page"(store) {
    store.cooldowns.apply([{
      accountId: "a",
      record: { accountId: "a", expiresAt: NOW + 5, reason: "429", backoffLevel: 1 },
    }]);
    assertEquals(store.cooldowns.all().map((c) => [c.accountId, c.backoffLevel]), [["a", 1]]);
    store.cooldowns.clear();
    assertEquals(store.cooldowns.all(), []);
    const log = {
      ts: NOW,
      clientFormat: "chat_completions",
      model: "p/m1",
      providerId: "a",
      accountId: "a",
      status: 200,
      latencyMs: 4,
      streamed: false,
      user: "alice",
      requestBody: "{}",
      responseBody: "{}",
      error: "",
      requestTruncated: false,
      responseTruncated: false,
      warnings: [],
    };
    store.requestLogs.insert([log, { ...log, user: "bob" }, { ...log, user: "carol" }]);
    store.requestLogs.prune(2);
    assertEquals(store.requestLogs.page(10, 0).map((l) => l.user), ["carol", "bob"]);
    assertEquals(store.requestLogs.clear(), 2);
  },
  "cluster: a cursor returns other origins' events once, peers, configuration generation"(store) {
    const generation = store.cluster.configGeneration();
    store.settings.set("x_changed", "1");
    assert(store.cluster.configGeneration() > generation, "a configuration write bumps the generation");
    store.cluster.publish("other", "cooldown", "[0]", NOW);
    const cursor = store.cluster.cursor();
    store.cluster.publish("me", "cooldown", "[1]", NOW);
    store.cluster.publish("other", "cooldown", "[2]", NOW);
    store.cluster.publish("other", "cooldown", "[3]", NOW);
    assertEquals(
      cursor.next("me", 1).map((e) => e.payload),
      ["[2]"],
      "events from before the cursor are skipped",
    );
    assertEquals(
      cursor.next("me").map((e) => e.payload),
      ["[3]"],
      "a full page leaves the rest for the next",
    );
    assertEquals(cursor.next("me"), []);
    store.cluster.heartbeat("other", "worker-2", ["live"], NOW);
    assertEquals(store.cluster.peers("me", NOW - 1000), [{ label: "worker-2", wants: ["live"] }]);
    store.cluster.prune(NOW + 1);
    assertEquals(store.cluster.peers("me", 0), []);
  },
};

for (const [name, check] of Object.entries(checks)) {
  Deno.test(`contract on SQLite: ${name}`, () => {
    const store = new Store(openDatabase(":memory:"), box);
    try {
      check(store);
    } finally {
      store.close();
    }
  });
  Deno.test({
    name: `contract on PostgreSQL: ${name}`,
    ignore: postgresSkip(`contract: ${name}`),
    async fn() {
      const url = await (await testPostgres()).newDatabase();
      const dir = await Deno.makeTempDir();
      const store = Store.openWithSecret(url, `${dir}/secret.key`, undefined);
      try {
        check(store);
      } finally {
        store.close();
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "the PostgreSQL schema has every table and column the SQLite migrations create",
  ignore: postgresSkip("schema parity"),
  async fn() {
    const sqlite = openDatabase(":memory:");
    const expected = new Map<string, string[]>();
    const tables = sqlite.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    ).all() as { name: string }[];
    for (const { name } of tables) {
      const columns = sqlite.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[];
      expected.set(name, columns.map((c) => c.name).sort());
    }
    sqlite.close();
    const dir = await Deno.makeTempDir();
    const store = Store.openWithSecret(
      await (await testPostgres()).newDatabase(),
      `${dir}/secret.key`,
      undefined,
    );
    try {
      // PostgreSQL-only columns: `rowid` (SQLite's implicit one), `writer_xid` (see cluster_cursor.ts).
      const rows = store.db.prepare(
        `SELECT table_name, column_name FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
           AND column_name NOT IN ('rowid', 'writer_xid')`,
      ).all() as { table_name: string; column_name: string }[];
      const actual = new Map<string, string[]>();
      for (const r of rows) actual.set(r.table_name, [...(actual.get(r.table_name) ?? []), r.column_name]);
      for (const columns of actual.values()) columns.sort();
      assertEquals(
        Object.fromEntries([...actual].sort()),
        Object.fromEntries([...expected].sort()),
        "add the SQLite migration's tables and columns to migrations/postgres/",
      );
    } finally {
      store.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
