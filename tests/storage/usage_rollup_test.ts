import { openDatabase, SecretBox, Store, type UsageRow } from "../../src/storage/mod.ts";
import { assertEquals } from "../helpers/assert.ts";

const DAY = 86_400_000;

function row(overrides: Partial<UsageRow>): UsageRow {
  return {
    ts: 10 * DAY + 5,
    clientFormat: "chat_completions",
    requestModel: "p/m1",
    model: "p/m1",
    providerId: "acct-a",
    accountId: "acct-a",
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

/** The rollup as the usage table itself says it should be (the migration's backfill query). */
const EXPECTED =
  `SELECT ts / 86400000 AS day, model, provider_id, account_id, ifnull(client_key_id, 0) AS key,
  client_key_label AS label, count(*) AS requests, sum(status BETWEEN 200 AND 299) AS ok,
  sum(status BETWEEN 400 AND 499) AS client_errors, sum(status >= 500 OR status < 200) AS server_errors,
  sum(input_tokens) AS input, sum(output_tokens) AS output, sum(cache_read_tokens) AS cache_read,
  sum(cache_creation_tokens) AS cache_creation, round(sum(cost), 9) AS cost,
  sum(priced = 0 AND input_tokens + output_tokens > 0) AS unpriced
  FROM usage GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`;
const ACTUAL =
  `SELECT day, model, provider_id, account_id, client_key_id AS key, client_key_label AS label, requests,
  ok_requests AS ok, client_errors, server_errors, input_tokens AS input, output_tokens AS output,
  cache_read_tokens AS cache_read, cache_creation_tokens AS cache_creation, round(cost, 9) AS cost,
  unpriced_requests AS unpriced FROM usage_daily ORDER BY 1, 2, 3, 4, 5, 6`;

Deno.test("usage inserts keep the daily rollup equal to the usage table, across batches and groups", () => {
  const store = new Store(openDatabase(":memory:"), new SecretBox(new Uint8Array(32)));
  store.transaction(() =>
    store.usage.insert([
      row({}),
      row({ status: 429, inputTokens: 0, outputTokens: 0, cost: 0 }),
      row({ status: 502 }),
      row({ status: 0, error: "timeout" }),
      row({ clientKeyId: 7, clientKeyLabel: "ci", priced: false, cost: 0 }),
      row({ ts: 11 * DAY + 1, model: "p/m2" }),
    ])
  );
  store.transaction(() =>
    store.usage.insert([
      row({ status: 499 }),
      row({ clientKeyId: 7, clientKeyLabel: "ci", priced: false, cost: 0, outputTokens: 0, inputTokens: 0 }),
      row({ providerId: "acct-b", accountId: "acct-b" }),
    ])
  );
  const expected = store.db.prepare(EXPECTED).all();
  assertEquals(store.db.prepare(ACTUAL).all(), expected);
  assertEquals(expected.length, 4);
});
