/**
 * The repository contract, run against both databases: every repository of Store has a case and gives
 * the same answers on SQLite (the embedded default) and on PostgreSQL (a throwaway cluster; skipped with
 * the reason only where the server binaries are missing).
 */
import {
  openDatabase,
  PgDatabase,
  type RequestLogInput,
  type RequestRowInput,
  SecretBox,
  Store,
  type UsageRow,
} from "../../src/storage/mod.ts";
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

function requestLog(overrides: Partial<RequestLogInput>): RequestLogInput {
  return {
    uid: "",
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
    ...overrides,
  };
}

function request(overrides: Partial<RequestRowInput>): RequestRowInput {
  return {
    uid: "",
    ts: NOW,
    clientFormat: "chat_completions",
    model: "p/m1",
    providerId: "a",
    accountId: "a",
    clientKeyId: null,
    clientKeyLabel: "(no key)",
    status: 200,
    streamed: true,
    inputTokens: 10,
    outputTokens: 5,
    cost: 0,
    ttftMs: 5,
    latencyMs: 50,
    chain: [],
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
    assertEquals(store.pricing.all().m1.perImage, undefined);
    // Image and audio prices (migration 0026) round-trip beside the token ones.
    store.pricing.upsert("pics", {
      inputPerMtok: 0,
      outputPerMtok: 0,
      cacheCreationPerMtok: 0,
      cacheReadPerMtok: 0,
      perImage: { "hd@1024x1024": 0.08, "*": 0.04 },
      perSecond: 0.0001,
      perMchar: 15,
    }, NOW);
    const pics = store.pricing.all().pics;
    assertEquals([pics.perImage, pics.perSecond, pics.perMchar], [
      { "hd@1024x1024": 0.08, "*": 0.04 },
      0.0001,
      15,
    ]);
    assertEquals(store.pricing.delete("pics"), true);
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
  "usage stats: p50 / p95 latency per model and provider, successful requests only"(store) {
    store.transaction(() => {
      store.usage.insert([
        // m1 on provider a: 1..20 ms; p50 is the 10th value, p95 the 19th.
        ...Array.from({ length: 20 }, (_, i) => usage({ latencyMs: 20 - i })),
        usage({ latencyMs: 9_999, status: 502 }),
        usage({ latencyMs: 9_999, ts: NOW - 2 * DAY }),
        usage({ model: "p/m2", providerId: "b", latencyMs: 7 }),
      ]);
    });
    const byModel = store.usageStats.latencyPercentiles(NOW - DAY, "model", 10);
    assertEquals(byModel, [
      { key: "p/m1", requests: 20, p50Ms: 10, p95Ms: 19 },
      { key: "p/m2", requests: 1, p50Ms: 7, p95Ms: 7 },
    ]);
    const byProvider = store.usageStats.latencyPercentiles(NOW - DAY, "provider", 1);
    assertEquals(byProvider, [{ key: "a", requests: 20, p50Ms: 10, p95Ms: 19 }]);
  },
  "requests: p50 / p95 time to first byte per model and provider, successful answers that sent one"(store) {
    store.transaction(() => {
      store.requests.insert([
        // m1 on provider a: 1..20 ms; p50 is the 10th value, p95 the 19th.
        ...Array.from({ length: 20 }, (_, i) => request({ ttftMs: 20 - i })),
        request({ ttftMs: 9_999, status: 502 }),
        request({ ttftMs: -1 }),
        request({ ttftMs: 9_999, ts: NOW - 2 * DAY }),
        request({ model: "p/m2", providerId: "b", ttftMs: 7 }),
      ]);
    });
    assertEquals(store.requests.ttftPercentiles(NOW - DAY, "model", 10), [
      { key: "p/m1", requests: 20, p50Ms: 10, p95Ms: 19 },
      { key: "p/m2", requests: 1, p50Ms: 7, p95Ms: 7 },
    ]);
    assertEquals(store.requests.ttftPercentiles(NOW - DAY, "provider", 1), [
      { key: "a", requests: 20, p50Ms: 10, p95Ms: 19 },
    ]);
  },
  "usage stats: one key's usage per day, per model and per model per day"(store) {
    store.transaction(() => {
      store.usage.insert([
        usage({ clientKeyId: 4, clientKeyLabel: "k4" }),
        usage({ clientKeyId: 4, clientKeyLabel: "k4", model: "p/m2", status: 500, cost: 0 }),
        usage({ clientKeyId: 4, clientKeyLabel: "k4", ts: NOW - DAY }),
        usage({ clientKeyId: 5, clientKeyLabel: "k5" }),
      ]);
    });
    const k4 = store.usageStats.keyUsage(Math.floor(NOW / DAY) - 1, "k4");
    assertEquals(k4.daily.map((d) => [d.day - Math.floor(NOW / DAY), d.requests, d.serverErrors]), [
      [-1, 1, 0],
      [0, 2, 1],
    ]);
    assertEquals(k4.models.map((m) => [m.key, m.requests]), [["p/m1", 2], ["p/m2", 1]]);
    assertEquals(k4.modelDaily.map((r) => [r.day - Math.floor(NOW / DAY), r.model, r.requests]), [
      [-1, "p/m1", 1],
      [0, "p/m1", 1],
      [0, "p/m2", 1],
    ]);
  },
  "usage stats: hourly totals group raw rows by UTC hour"(store) {
    const HOUR = 3_600_000;
    store.transaction(() => {
      store.usage.insert([
        usage({ ts: NOW }),
        usage({ ts: NOW + HOUR - 1, status: 500, cost: 1 }),
        usage({ ts: NOW + 2 * HOUR, outputTokens: 7 }),
        usage({ ts: NOW - HOUR }),
      ]);
    });
    const hours = store.usageStats.hourly(NOW);
    assertEquals(hours.map((h) => [h.hour, h.requests, h.serverErrors, h.outputTokens]), [
      [NOW / HOUR, 2, 1, 10],
      [NOW / HOUR + 2, 1, 0, 7],
    ]);
    assertEquals(hours[0].cost, 1.25);
  },
  "usage stats: by kind of work, grouped and filtered (rows without a kind are chat)"(store) {
    const HOUR = 3_600_000;
    const today = Math.floor(NOW / DAY);
    store.transaction(() =>
      store.usage.insert([
        usage({}),
        usage({ kind: "chat", status: 500, cost: 0 }),
        usage({ kind: "embedding", clientFormat: "embeddings", inputTokens: 40, outputTokens: 0, cost: 0.5 }),
        usage({ kind: "embedding", clientFormat: "embeddings", inputTokens: 60, outputTokens: 0, cost: 0.5 }),
        usage({ kind: "image", clientFormat: "images", inputTokens: 0, outputTokens: 0, cost: 2 }),
        usage({ kind: "completion", ts: NOW - DAY, cost: 9 }),
      ])
    );
    const kinds = store.usageStats.breakdown(today - 1, "kind", 10);
    assertEquals(kinds.map((k) => [k.key, k.requests, k.inputTokens, k.outputTokens, k.cost]), [
      ["completion", 1, 10, 5, 9],
      ["image", 1, 0, 0, 2],
      ["embedding", 2, 100, 0, 1],
      ["chat", 2, 20, 10, 0.25],
    ]);
    const embeddings = store.usageStats.totals(today, "embedding");
    assertEquals([embeddings.requests, embeddings.inputTokens, embeddings.cost], [2, 100, 1]);
    assertEquals(store.usageStats.totals(today, "rerank").requests, 0);
    assertEquals(store.usageStats.totals(today).requests, 5, "no filter: every kind");
    assertEquals(store.usageStats.daily(today - 1, "completion").map((d) => [d.day, d.requests]), [[
      today - 1,
      1,
    ]]);
    assertEquals(store.usageStats.hourly(NOW - HOUR, "chat").map((h) => h.requests), [2]);
    assertEquals(store.usageStats.breakdown(today, "model", 10, "image").map((g) => [g.key, g.cost]), [[
      "p/m1",
      2,
    ]]);
    assertEquals(store.usageStats.byClient(today, "embedding").map((c) => c.requests), [2]);
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
  "usage: a batch of 137 rows (64 + 64 + 8 + 1 per statement) stores every row's values in order"(store) {
    const rows = Array.from({ length: 137 }, (_, i) =>
      usage({
        ts: NOW + i,
        latencyMs: 1000 + i,
        clientKeyId: i % 3 === 0 ? null : i,
        estimated: i % 2 === 0,
        error: i === 100 ? 'it\'s "quoted" – ünïcode' : "",
      }));
    store.transaction(() => store.usage.insert(rows));
    assertEquals(store.usage.count(), 137);
    const stored = store.db.prepare(
      "SELECT ts, latency_ms, client_key_id, estimated, error FROM usage ORDER BY ts",
    ).all() as {
      ts: number;
      latency_ms: number;
      client_key_id: number | null;
      estimated: number;
      error: string;
    }[];
    assertEquals(
      stored.map((
        r,
      ) => [
        Number(r.ts),
        Number(r.latency_ms),
        r.client_key_id === null ? null : Number(r.client_key_id),
        Number(r.estimated),
        r.error,
      ]),
      rows.map((r) => [r.ts, r.latencyMs, r.clientKeyId, r.estimated ? 1 : 0, r.error]),
    );
    assertEquals(store.usageStats.totals(Math.floor(NOW / DAY)).requests, 137, "the rollup counts every row");
  },
  "usage: awkward values (quotes, backslashes, unicode, large numbers, null keys) read back as written"(
    store,
  ) {
    const texts = [
      `it's "quoted"; -- '); DROP TABLE usage; --`,
      "back\\slash \\ud800 \\u0000 \\n and a tab\t and a newline\n",
      "ünïcode – 中文 – עברית – emoji 😀👩‍👩‍👧 – U+2028\u2028",
      '{"json": [1, "two", null]} $1 ? ?1 :name',
      "",
    ];
    // 600 rows: several statements on either database (SQLite 64 + 8 + 1 rows each, PostgreSQL 512).
    const rows = Array.from({ length: 600 }, (_, i) =>
      usage({
        ts: i === 0 ? Number.MAX_SAFE_INTEGER : NOW + i,
        clientFormat: texts[i % 5],
        requestModel: `p/${texts[(i + 1) % 5]}`,
        model: `p/m${i % 3}`,
        providerId: texts[(i + 2) % 5],
        accountId: texts[(i + 3) % 5],
        clientKeyId: i % 4 === 0 ? null : i * 1_000_000_007,
        clientKeyLabel: texts[(i + 4) % 5],
        status: [200, 429, 500, 0][i % 4],
        inputTokens: i * 123_456_789,
        cacheReadTokens: i % 7,
        cacheCreationTokens: 2 ** 40 + i,
        outputTokens: 2 ** 31 + i,
        reasoningTokens: i,
        estimated: i % 2 === 0,
        cost: [0, 0.1 + 0.2, 1e-12, 123_456.789_012_345_6, 1 / 3, -0.5][i % 6],
        priced: i % 3 !== 0,
        latencyMs: i * 1000,
        streamed: i % 5 === 0,
        error: i % 2 === 0 ? texts[i % 5] : "x".repeat(2000),
      }));
    store.transaction(() => store.usage.insert(rows));
    const stored = store.db.prepare(`SELECT * FROM usage ORDER BY id`).all() as Record<string, unknown>[];
    assertEquals(
      stored.map((r): UsageRow => ({
        ts: Number(r.ts),
        clientFormat: r.client_format as string,
        requestModel: r.request_model as string,
        model: r.model as string,
        providerId: r.provider_id as string,
        accountId: r.account_id as string,
        clientKeyId: r.client_key_id === null ? null : Number(r.client_key_id),
        clientKeyLabel: r.client_key_label as string,
        status: Number(r.status),
        inputTokens: Number(r.input_tokens),
        cacheReadTokens: Number(r.cache_read_tokens),
        cacheCreationTokens: Number(r.cache_creation_tokens),
        outputTokens: Number(r.output_tokens),
        reasoningTokens: Number(r.reasoning_tokens),
        estimated: Number(r.estimated) === 1,
        cost: r.cost as number,
        priced: Number(r.priced) === 1,
        latencyMs: Number(r.latency_ms),
        streamed: Number(r.streamed) === 1,
        error: r.error as string,
      })),
      rows,
    );
  },
  "usage: a cost that is not finite and an error text cut inside an emoji are stored as before"(store) {
    // The recorder cuts error text at 2000 UTF-16 units, which can split a surrogate pair; the half left is
    // stored as U+FFFD (what a text parameter turns it into), and the rest of the batch is stored too.
    const cut = `${"x".repeat(1999)}😀`.slice(0, 2000);
    store.transaction(() =>
      store.usage.insert([
        usage({ error: cut }),
        usage({ cost: Infinity, ts: NOW + 1 }),
        usage({ ts: NOW + 2 }),
      ])
    );
    // Compared in SQL: PostgreSQL's answers cross the bridge as JSON, where Infinity reads back as null.
    const stored = store.db.prepare("SELECT error, cost > 1e308 AS infinite FROM usage ORDER BY ts")
      .all() as {
        error: string;
        infinite: number | boolean;
      }[];
    assertEquals(stored.map((r) => [r.error, Number(r.infinite)]), [
      [`${"x".repeat(1999)}\ufffd`, 0],
      ["", 1],
      ["", 0],
    ]);
  },
  "a NUL in a client's or an upstream's text does not cost its batch (PostgreSQL stores it as U+FFFD)"(
    store,
  ) {
    // PostgreSQL text cannot hold U+0000 and refuses the statement: one NUL dropped every row batched with it.
    // node:sqlite ends a text parameter at a NUL; PostgreSQL stores U+FFFD. Either way every row is stored.
    const nul = store.db instanceof PgDatabase ? "\ufffd" : "";
    store.transaction(() =>
      store.usage.insert([
        usage({ error: "upstream said \u0000" }),
        usage({ ts: NOW + 1, requestModel: "m\u0000" }),
      ])
    );
    const errors = store.db.prepare("SELECT error, request_model FROM usage ORDER BY ts").all() as {
      error: string;
      request_model: string;
    }[];
    assertEquals(errors.map((r) => [r.error, r.request_model]), [[`upstream said ${nul}`, "p/m1"], [
      "",
      `m${nul}`,
    ]]);
    const log = requestLog({
      requestBody: JSON.stringify({ messages: [{ content: "a\u0000b" }] }),
      responseBody: "b\u0000c",
    });
    store.transaction(() => store.requestLogs.insert([log, { ...log, ts: NOW + 1, user: "bob" }]));
    const logs = store.requestLogs.all();
    const cut = store.db instanceof PgDatabase ? "b\ufffdc" : "b";
    assertEquals(logs.map((l) => [l.user, l.responseBody]), [["bob", cut], ["alice", cut]]);
    // JSON.stringify escapes the NUL in the body, so it is stored as written everywhere.
    assertEquals(logs[0].requestBody, log.requestBody);
  },
  "cooldowns and request logs: apply, clear, prune, page"(store) {
    store.cooldowns.apply([{
      accountId: "a",
      record: { accountId: "a", expiresAt: NOW + 5, reason: "429", backoffLevel: 1 },
    }]);
    assertEquals(store.cooldowns.all().map((c) => [c.accountId, c.backoffLevel]), [["a", 1]]);
    store.cooldowns.clear();
    assertEquals(store.cooldowns.all(), []);
    const log = requestLog({});
    store.requestLogs.insert([log, { ...log, user: "bob" }, { ...log, user: "carol" }]);
    store.requestLogs.prune(2);
    assertEquals(store.requestLogs.all().map((l) => l.user), ["carol", "bob"]);
    assertEquals(store.requestLogs.clear(), 2);
  },
  "request logs: 150 rows with awkward text and warnings read back as written, newest first"(store) {
    const texts = [
      `it's "quoted"; -- '); DROP TABLE request_logs; --`,
      "back\\slash \\ud800 \\u0000 and a tab\t and a newline\n",
      "ünïcode – 中文 – emoji 😀👩‍👩‍👧 – U+2028\u2028",
      '{"json": [1, "two", null]} $1 ? ?1',
      "",
    ];
    const logs = Array.from({ length: 150 }, (_, i) => ({
      uid: `u${i}`,
      ts: NOW + i,
      clientFormat: texts[i % 5],
      model: `p/${texts[(i + 1) % 5]}`,
      providerId: texts[(i + 2) % 5],
      accountId: texts[(i + 3) % 5],
      status: [200, 429, 500][i % 3],
      latencyMs: i + 0.5,
      streamed: i % 2 === 0,
      user: texts[(i + 4) % 5],
      requestBody: JSON.stringify({ messages: [{ content: texts[i % 5] }] }),
      responseBody: i % 7 === 0 ? "y".repeat(65_536) : texts[(i + 1) % 5],
      error: texts[(i + 2) % 5],
      requestTruncated: i % 3 === 0,
      responseTruncated: i % 7 === 0,
      warnings: i % 4 === 0 ? [] : [{ code: "dropped_field", message: texts[i % 5] }, {
        code: "x",
        message: "\ud800 as JSON keeps it escaped",
      }],
    }));
    store.transaction(() => store.requestLogs.insert(logs));
    assertEquals(
      store.requestLogs.all().map(({ id: _id, ...rest }) => rest),
      logs.map((l) => ({ ...l, latencyMs: Math.round(l.latencyMs) })).reverse(),
    );
  },
  "credentials: the refresh lease is exclusive until it expires; rotation is written back with its spent token"(
    store,
  ) {
    store.providers.upsert({
      id: "sub",
      prefix: "s",
      apiType: "chat_compat",
      baseUrl: "http://x",
      models: ["m1"],
      apiKey: '{"refresh_token":"rt-1"}',
      enabled: true,
    }, NOW);
    const { credentials } = store;
    assertEquals(credentials.tryLease("sub", "worker-1", NOW, 1000), true);
    assertEquals(credentials.tryLease("sub", "worker-2", NOW + 500, 1000), false, "held by another");
    assertEquals(credentials.tryLease("sub", "worker-1", NOW + 500, 1000), true, "the holder renews");
    assertEquals(credentials.tryLease("sub", "worker-2", NOW + 1501, 1000), true, "expired: taken over");
    credentials.releaseLease("sub", "worker-1"); // not the holder: no effect
    assertEquals(credentials.tryLease("sub", "worker-1", NOW + 1600, 1000), false);

    const slot = credentials.providerSlot("sub");
    credentials.saveRotated(slot, '{"refresh_token":"rt-2"}', "rt-1", NOW + 1700, {
      name: "sub",
      holder: "worker-2",
    });
    assertEquals(slot.read(), '{"refresh_token":"rt-2"}');
    assertEquals(credentials.isSpent(slot.id, "rt-1"), true);
    assertEquals(credentials.isSpent(slot.id, "rt-2"), false);
    assertEquals(
      credentials.tryLease("sub", "worker-1", NOW + 1701, 1000),
      true,
      "released with the rotation",
    );
    credentials.recordError(slot.id, "invalid_grant", NOW + 1800);
    assertEquals(credentials.states().get(slot.id), {
      lastRefreshAt: NOW + 1700,
      lastError: "invalid_grant",
      lastErrorAt: NOW + 1800,
    });
    assertEquals(credentials.providerSlot("gone").read(), undefined);
  },
  "dashboard sessions: create drops expired ones, get, delete, delete for a key"(store) {
    const key = store.keys.create(
      { name: "k", keyHash: "h1", prefix: "sk-gw-1", canLogin: true, allowedModels: [] },
      NOW,
    );
    const session = (tokenHash: string, keyId: number | null, createdAt: number) => ({
      tokenHash,
      keyId,
      staticKeyHash: keyId === null ? "static-hash" : null,
      createdAt,
      expiresAt: createdAt + 1000,
    });
    store.sessions.create(session("old", null, NOW - 5000));
    store.sessions.create(session("a", key.id, NOW));
    store.sessions.create(session("b", key.id, NOW));
    store.sessions.create(session("c", null, NOW));
    assertEquals(store.sessions.get("old"), undefined, "expired before the newer ones were created");
    assertEquals(store.sessions.get("a"), session("a", key.id, NOW));
    assertEquals(store.sessions.get("c")?.staticKeyHash, "static-hash");
    store.sessions.delete("c");
    assertEquals(store.sessions.get("c"), undefined);
    assertEquals(store.sessions.deleteForKey(key.id), 2);
    assertEquals(store.sessions.get("b"), undefined);
  },
  "cache affinity: upsert rebinds, recent keeps the newest within a limit oldest first, prune"(store) {
    store.cacheAffinity.upsert([
      { keyHash: "k1", accountId: "a", usedAt: NOW },
      { keyHash: "k2", accountId: "a", usedAt: NOW + 1 },
      { keyHash: "k3", accountId: "b", usedAt: NOW + 2 },
    ]);
    store.cacheAffinity.upsert([{ keyHash: "k1", accountId: "b", usedAt: NOW + 3 }]);
    assertEquals(store.cacheAffinity.recent(0, 2), [
      { keyHash: "k3", accountId: "b", usedAt: NOW + 2 },
      { keyHash: "k1", accountId: "b", usedAt: NOW + 3 },
    ]);
    assertEquals(store.cacheAffinity.recent(NOW + 3, 10).map((r) => r.keyHash), ["k1"]);
    store.cacheAffinity.prune(NOW + 2);
    assertEquals(store.cacheAffinity.recent(0, 10).map((r) => r.keyHash), ["k3", "k1"]);
  },
  "cache affinity and turn tokens: a batch of 600 with a key twice keeps the later values, as one by one"(
    store,
  ) {
    const bindings = Array.from({ length: 600 }, (_, i) => ({
      keyHash: `k${i}`,
      accountId: `a-${i} 'ü' \\ 😀`,
      usedAt: NOW + i,
    }));
    // The second k5 comes within the same 512 (one statement on PostgreSQL).
    const moved = { keyHash: "k5", accountId: "moved", usedAt: NOW + 600 };
    store.cacheAffinity.upsert([...bindings.slice(0, 10), moved, ...bindings.slice(10)]);
    const recent = store.cacheAffinity.recent(0, 1_000);
    assertEquals(recent.length, 600);
    assertEquals(recent.at(-1), { keyHash: "k5", accountId: "moved", usedAt: NOW + 600 });
    assertEquals(recent.slice(0, -1), bindings.filter((b) => b.keyHash !== "k5"));

    const rows = Array.from({ length: 600 }, (_, i) => ({
      key: `call-${i}`,
      tokens: JSON.stringify([`sig "${i}" \\ 😀`]),
      createdAt: NOW,
    }));
    const later = { key: "call-7", tokens: '["later"]', createdAt: NOW };
    store.turnTokens.put([...rows.slice(0, 10), later, ...rows.slice(10)]);
    const newest = store.turnTokens.newest(1_000_000);
    assertEquals(newest.length, 600);
    // Same created_at: newest first by insertion, and call-7 keeps its first place (an update, not a new row).
    assertEquals(
      newest.map((r) => [r.key, r.tokens]),
      rows.map((r) => [r.key, r.key === "call-7" ? '["later"]' : r.tokens]).reverse(),
    );
  },
  "inventory: keys are sealed, found by hash, listed, archived, revoked, counted, deleted"(store) {
    const { inventory } = store;
    inventory.ensureProvider("openai", NOW);
    inventory.ensureProvider("openai", NOW); // idempotent
    const key = (id: string, value: string, priority: number) => ({
      id,
      providerId: "openai",
      label: id,
      value,
      hash: `hash-${id}`,
      masked: `sk-…${id}`,
      baseUrl: "",
      sourceNode: "",
      priority,
      status: "active",
      lastError: "",
      metadata: "{}",
      note: "imported",
    });
    inventory.insert(key("k1", "sk-inventory-secret-1", 1), NOW);
    inventory.insert(key("k2", "sk-inventory-secret-2", 5), NOW + 1);
    const raw = store.db.prepare("SELECT key_value FROM upstream_keys WHERE id = ?").get("k1") as {
      key_value: string;
    };
    assert(raw.key_value.startsWith("enc:v1:"), "sealed at rest");
    assertEquals(inventory.value("k1"), "sk-inventory-secret-1");
    assertEquals(inventory.byHash("hash-k2"), {
      id: "k2",
      providerId: "openai",
      label: "k2",
      status: "active",
    });
    assertEquals(inventory.byHash("nope"), null);
    const page = inventory.keys(10, 0, { provider: "openai" });
    assertEquals([page.total, page.keys.map((k) => k.id)], [2, ["k2", "k1"]], "priority first");
    assertEquals(inventory.keys(10, 0, { search: "k1" }).keys.map((k) => k.masked), ["sk-…k1"]);
    assertEquals(inventory.routable(), [], "not routable before a check says valid and usable");

    store.inventoryChecks.record("k1", {
      status: "active",
      valid: true,
      usable: true,
      usability: "usable",
      note: "",
      error: "",
      health: "healthy",
      models: null,
      rpm: 60,
      tpm: null,
      rpd: null,
      credits: { remaining: 4.5, total: 5, used: 0.5 },
    }, NOW + 2);
    assertEquals(inventory.routable().map((k) => [k.id, k.value, k.creditsRemaining, k.rateLimitRpm]), [
      ["k1", "sk-inventory-secret-1", 4.5, 60],
    ]);
    assertEquals(inventory.setArchived("k1", true, NOW + 3), true);
    assertEquals(inventory.setArchived("nope", true, NOW + 3), false);
    assertEquals(inventory.routable(), []);
    assertEquals([...inventory.blockedHashes()], ["hash-k1"]);
    inventory.revoke("k2", NOW + 4, "gone upstream");
    assertEquals(inventory.key("k2")?.status, "revoked");
    assertEquals(
      inventory.counts().map((c) => [c.status, c.archived, c.n]),
      [["active", true, 1], ["revoked", false, 1]],
    );
    assertEquals(inventory.secretValues().sort(), ["sk-inventory-secret-1", "sk-inventory-secret-2"]);
    assertEquals(inventory.exportRows("openai").map((r) => r.value).sort(), [
      "sk-inventory-secret-1",
      "sk-inventory-secret-2",
    ]);
    assertEquals(inventory.delete("k2"), true);
    assertEquals(inventory.delete("k2"), false);
    assertEquals(inventory.counts().map((c) => [c.status, c.n]), [["active", 1]]);
    assertEquals(store.inventoryChecks.history("k2"), [], "its history went with it");
  },
  "inventory checks: due keys, a result with models and history, an inconclusive check keeps the status"(
    store,
  ) {
    store.inventory.ensureProvider("openai", NOW);
    for (const [id, status] of [["k1", "pending_validation"], ["k2", "revoked"]]) {
      store.inventory.insert({
        id,
        providerId: "openai",
        label: id,
        value: `sk-check-${id}`,
        hash: `hash-${id}`,
        masked: id,
        baseUrl: "",
        sourceNode: "",
        priority: 0,
        status,
        lastError: "",
        metadata: "{}",
        note: "",
      }, NOW);
    }
    const checks = store.inventoryChecks;
    assertEquals(
      checks.due().map((k) => [k.id, k.value]),
      [["k1", "sk-check-k1"]],
      "revoked keys are not due",
    );
    assertEquals(checks.due(["k2"]), []);
    const result = {
      status: "active",
      valid: true,
      usable: true,
      usability: "usable",
      note: "ok",
      error: "",
      health: "healthy",
      models: ["gpt-b", "gpt-a"],
      rpm: null,
      tpm: null,
      rpd: null,
      credits: { remaining: 3, total: null, used: null },
      rotated: { value: "sk-check-rotated", hash: "hash-rotated", masked: "rot" },
    };
    checks.record("k1", result, NOW + 10);
    assertEquals(checks.models("k1"), ["gpt-a", "gpt-b"]);
    assertEquals(checks.due(["k1"])[0].value, "sk-check-rotated");
    checks.record(
      "k1",
      { ...result, status: null, models: null, rotated: undefined, error: "timeout" },
      NOW + 20,
    );
    assertEquals(store.inventory.key("k1")?.status, "active", "an inconclusive check keeps the status");
    assertEquals(checks.models("k1"), ["gpt-a", "gpt-b"], "a check without a model list keeps the models");
    assertEquals(
      checks.history("k1").map((
        h,
      ) => [h.previousStatus, h.newStatus, h.notes, h.creditsRemaining, h.changedAt]),
      [
        ["active", "active", "timeout; ok", 3, NOW + 20],
        ["pending_validation", "active", "ok; credential rotated", 3, NOW + 10],
        ["", "pending_validation", "", null, NOW],
      ],
    );
    assertEquals(checks.history("k1", 1).length, 1);
  },
  "saver stats and turn tokens: counters add up; newest tokens within a size, replace, prune"(store) {
    store.saverStats.add("rtk", 1, 100, 60, 0);
    store.saverStats.add("rtk", 2, 50, 40, 1);
    store.saverStats.add("caveman", 1, 10, 9, 0);
    assertEquals(store.saverStats.all(), [
      { saver: "caveman", requests: 1, bytesBefore: 10, bytesAfter: 9, errors: 0 },
      { saver: "rtk", requests: 3, bytesBefore: 150, bytesAfter: 100, errors: 1 },
    ]);
    store.turnTokens.put([
      { key: "call-1", tokens: '["a"]', createdAt: NOW },
      { key: "call-2", tokens: '["b"]', createdAt: NOW + 1 },
      { key: "call-3", tokens: '["c"]', createdAt: NOW + 2 },
    ]);
    store.turnTokens.put([{ key: "call-1", tokens: '["a2"]', createdAt: NOW + 3 }]);
    assertEquals(store.turnTokens.newest(1_000).map((r) => [r.key, r.tokens]), [
      ["call-1", '["a2"]'],
      ["call-3", '["c"]'],
      ["call-2", '["b"]'],
    ]);
    // Each row is 6 + 5 or 6 characters: two fit in 23.
    assertEquals(store.turnTokens.newest(23).map((r) => r.key), ["call-1", "call-3"]);
    assertEquals(store.turnTokens.prune(NOW + 2), 1);
    assertEquals(store.turnTokens.newest(1_000).map((r) => r.key), ["call-1", "call-3"]);
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
