import { assert, assertEquals } from "../helpers/assert.ts";
import { chatCompletion, post, usageRows } from "../helpers/chat_fixtures.ts";
import { setupDashboard } from "./dashboard_helpers.ts";

type Json = Record<string, unknown>;

Deno.test("routing state: per-account quota windows, why an account goes last, try order, held caches", async () => {
  await using t = await setupDashboard();
  t.mock.script({
    json: chatCompletion("ok"),
    headers: {
      "x-ratelimit-limit-requests": "100",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1m0s",
    },
  });
  const ask = { model: "p/m1", messages: [{ role: "user", content: "hi" }], prompt_cache_key: "conv-1" };
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, ask)).status, 200);
  const routing = (await t.json("/dashboard/api/v2/state/routing")).body.data as Json;
  const [prefix] = routing.prefixes as Json[];
  assertEquals(prefix.try_order, ["acct-a"]);
  const [account] = prefix.accounts as Json[];
  assertEquals(account.cache_sessions, 1);
  const quota = account.quota as Json;
  assertEquals([quota.headroom, quota.deprioritised], [0, true]);
  assertEquals(quota.reason, "upstream requests window used up (100 of 100)");
  const [window] = quota.windows as Json[];
  assertEquals([window.id, window.source, window.limit, window.remaining], ["requests", "upstream", 100, 0]);
  assert(typeof window.reset_at === "number" && window.reset_at > Date.now());
});

Deno.test("analytics by account shows the share of input read from the prompt cache", async () => {
  await using t = await setupDashboard();
  t.mock.script({
    json: chatCompletion("ok", { prompt_tokens: 100, completion_tokens: 5 }, {
      usage: {
        prompt_tokens: 100,
        completion_tokens: 5,
        total_tokens: 105,
        prompt_tokens_details: { cached_tokens: 75 },
      },
    }),
  });
  assertEquals(
    (await post(`${t.gw.url}/v1/chat/completions`, {
      model: "p/m1",
      messages: [{ role: "user", content: "hi" }],
    })).status,
    200,
  );
  assertEquals((await usageRows(t.gw)).length, 1);
  const analytics = (await t.json("/dashboard/api/v2/state/analytics?days=7&dimension=account")).body
    .data as Json;
  const [row] = analytics.breakdown as Json[];
  assertEquals([row.key, row.input_tokens, row.cache_read_tokens, row.cache_read_pct], [
    "acct-a",
    100,
    75,
    75,
  ]);
});
