/**
 * The request log's index (`requests`) on both databases: every filter, alone and combined, returns exactly
 * the requests it names, keyset pages cover them once each, and the text search reads only the kept bodies.
 */
import {
  openDatabase,
  type RequestFilter,
  type RequestLogInput,
  type RequestRow,
  type RequestRowInput,
  SecretBox,
  statusClassOf,
  Store,
} from "../../src/storage/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

const box = new SecretBox(new Uint8Array(32).fill(9));
const T0 = 1_800_000_000_000;
const SURFACES = ["chat_completions", "responses", "messages", "generate_content", "local_runner"];
const STATUSES = [200, 200, 429, 503, 0, 400];

/** 120 requests over two minutes with every field varying; several share a millisecond (ties on ts). */
function seeded(): RequestRowInput[] {
  return Array.from({ length: 120 }, (_, i) => ({
    uid: `req-${i}`,
    ts: T0 + Math.floor(i / 3) * 1_000,
    clientFormat: SURFACES[i % 5],
    model: `p${i % 3}/m${i % 4}`,
    providerId: `prov-${i % 3}`,
    accountId: `acct-${i % 6}`,
    clientKeyId: i % 4 === 0 ? null : (i % 3) + 1,
    clientKeyLabel: i % 4 === 0 ? "(no key)" : `key-${(i % 3) + 1}`,
    status: STATUSES[i % 6],
    streamed: i % 2 === 0,
    inputTokens: i,
    outputTokens: 2 * i,
    cost: i / 1000,
    ttftMs: i % 5 === 0 ? -1 : i * 3,
    latencyMs: i * 7,
    chain: i % 6 === 3
      ? [
        {
          providerId: "prov-9",
          accountId: "acct-9",
          model: "p9/m",
          status: 429,
          error: "rate limited",
          latencyMs: 5,
        },
        {
          providerId: `prov-${i % 3}`,
          accountId: `acct-${i % 6}`,
          model: "x",
          status: 503,
          error: "down",
          latencyMs: 9,
        },
      ]
      : [{
        providerId: `prov-${i % 3}`,
        accountId: `acct-${i % 6}`,
        model: "x",
        status: 200,
        error: "",
        latencyMs: 9,
      }],
    error: STATUSES[i % 6] === 200 ? "" : `failed ${i}`,
  }));
}

/** Bodies kept for the newest 30 requests only (as retention would leave them); two hold search bait. */
function bodies(rows: readonly RequestRowInput[]): RequestLogInput[] {
  return rows.slice(-30).map((r, i) => ({
    uid: r.uid,
    ts: r.ts,
    clientFormat: r.clientFormat,
    model: r.model,
    providerId: r.providerId,
    accountId: r.accountId,
    status: r.status,
    latencyMs: r.latencyMs,
    streamed: r.streamed,
    user: r.clientKeyLabel,
    requestBody: JSON.stringify({
      messages: [{ content: i === 4 ? "Find the NEEDLE please" : `plain ${r.uid}` }],
    }),
    responseBody: i === 11 ? "an answer with a needle in it" : i === 12 ? "100%_done" : "ok",
    requestTruncated: false,
    responseTruncated: false,
    error: "",
    warnings: [],
  }));
}

/** Every page of `filter`, `limit` rows at a time, following the cursors. */
function allPages(store: Store, filter: RequestFilter, limit: number): RequestRow[] {
  const rows: RequestRow[] = [];
  let page = store.requests.page(filter, limit);
  rows.push(...page.rows);
  while (page.next !== null) {
    assertEquals(page.rows.length, limit, "only the last page is short");
    page = store.requests.page(filter, limit, page.next);
    rows.push(...page.rows);
  }
  return rows;
}

/** The uids a filter should return, newest first (ts, then insertion order), computed from the inputs. */
function expected(rows: readonly RequestRowInput[], keep: (r: RequestRowInput) => boolean): string[] {
  return rows.map((r, i) => ({ r, i })).filter(({ r }) => keep(r))
    .sort((a, b) => b.r.ts - a.r.ts || b.i - a.i).map(({ r }) => r.uid);
}

function check(store: Store): void {
  const rows = seeded();
  store.transaction(() => store.requests.insert(rows));
  const kept = bodies(rows);
  store.transaction(() => store.requestLogs.insert(kept));
  const uids = (filter: RequestFilter, limit = 7) => allPages(store, filter, limit).map((r) => r.uid);

  assertEquals(uids({}), expected(rows, () => true), "no filter: every request, newest first, once each");
  assertEquals(uids({}, 1000), uids({}, 7), "page size does not change the order");
  const cases: [string, RequestFilter, (r: RequestRowInput) => boolean][] = [
    ["time range", { from: T0 + 10_000, to: T0 + 20_000 }, (r) => r.ts >= T0 + 10_000 && r.ts < T0 + 20_000],
    ["model", { model: "p1/m3" }, (r) => r.model === "p1/m3"],
    ["provider", { providerId: "prov-2" }, (r) => r.providerId === "prov-2"],
    ["account", { accountId: "acct-5" }, (r) => r.accountId === "acct-5"],
    ["key", { clientKeyId: 2 }, (r) => r.clientKeyId === 2],
    ["no key", { clientKeyId: null }, (r) => r.clientKeyId === null],
    ["status 5xx", { statusClass: 5 }, (r) => r.status >= 500],
    ["status 4xx", { statusClass: 4 }, (r) => r.status >= 400 && r.status < 500],
    ["no status", { statusClass: 0 }, (r) => r.status === 0],
    ["surface", { clientFormat: "messages" }, (r) => r.clientFormat === "messages"],
    ["streamed", { streamed: true }, (r) => r.streamed],
    ["not streamed", { streamed: false }, (r) => !r.streamed],
    [
      "combined",
      { providerId: "prov-0", statusClass: 2, streamed: true, from: T0 + 5_000 },
      (r) => r.providerId === "prov-0" && r.status === 200 && r.streamed && r.ts >= T0 + 5_000,
    ],
    [
      "nothing matches",
      { model: "p1/m3", accountId: "acct-0" },
      (r) => r.model === "p1/m3" && r.accountId === "acct-0",
    ],
  ];
  for (const [name, filter, keep] of cases) {
    const want = expected(rows, keep);
    assertEquals(uids(filter), want, name);
    if (name !== "nothing matches") assert(want.length > 0, `${name} selects something`);
  }
  assertEquals(expected(rows, (r) => r.model === "p1/m3" && r.accountId === "acct-0"), []);

  // Text search: case-insensitive, request or response body, only the kept bodies, wildcards literal.
  assertEquals(new Set(uids({ text: "needle" })), new Set([kept[4].uid, kept[11].uid]));
  assertEquals(uids({ text: "needle", statusClass: statusClassOf(kept[4].status) as 0 }), [kept[4].uid]);
  assertEquals(uids({ text: 'req-0"' }), [], "bodies of pruned requests are not searched");
  assertEquals(uids({ text: "%_" }), [kept[12].uid], "% and _ are matched as text");
  assertEquals(uids({ text: "plain" }).length, 29, "every kept request body but the one with the needle");

  const [one] = store.requests.page({ model: rows[9].model, from: rows[9].ts, to: rows[9].ts + 1 }, 10).rows
    .filter((r) => r.uid === rows[9].uid);
  const { id: _id, logId, ...stored } = one;
  assertEquals(stored, rows[9], "a row reads back as written, chain included");
  assertEquals(logId, null, "its bodies were not kept");
  const newest = store.requests.page({}, 1).rows[0];
  assert(newest.logId !== null, "the newest request links to its bodies");
  assertEquals(store.requestLogs.get(newest.logId!)?.uid, newest.uid);
  assertEquals(store.requests.clear(), 120);
}

Deno.test("requests index on SQLite: every filter, keyset pages and the bounded body search", () => {
  const store = new Store(openDatabase(":memory:"), box);
  try {
    check(store);
  } finally {
    store.close();
  }
});

Deno.test({
  name: "requests index on PostgreSQL: every filter, keyset pages and the bounded body search",
  ignore: postgresSkip("requests index"),
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
