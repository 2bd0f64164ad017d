import { assertEquals } from "../helpers/assert.ts";
import { CNY_USD, creditUrl, nextUtcMidnight, readCredit } from "../../src/inventory/credit_endpoints.ts";

const NOW = Date.UTC(2026, 10, 27, 15, 30);
const ok = (body: unknown) => ({ status: 200, text: JSON.stringify(body) });

Deno.test("creditUrl() puts each upstream's credit endpoint where the reference says", () => {
  assertEquals(
    creditUrl("openrouter_key", "https://openrouter.ai/api/v1/"),
    "https://openrouter.ai/api/v1/key",
  );
  assertEquals(
    creditUrl("deepseek_balance", "https://api.deepseek.com/v1"),
    "https://api.deepseek.com/user/balance",
  );
  assertEquals(
    creditUrl("moonshot_balance", "https://api.moonshot.cn/v1"),
    "https://api.moonshot.cn/v1/users/me/balance",
  );
  assertEquals(nextUtcMidnight(NOW), Date.UTC(2026, 10, 28));
});

Deno.test("readCredit(): an OpenRouter key whose daily limit is spent is daily-exhausted until 00:00 UTC", () => {
  const url = "https://openrouter.ai/api/v1/key";
  const spent = readCredit(
    "openrouter_key",
    ok({
      data: { limit: 5, limit_remaining: 0, limit_reset: "daily", usage: 42.5, usage_daily: 5.01 },
    }),
    url,
    NOW,
  );
  assertEquals(spent.kind === "credits" && [spent.dailyExhausted, spent.empty, spent.resetsAt], [
    true,
    false,
    Date.UTC(2026, 10, 28),
  ]);
  assertEquals(spent.kind === "credits" && spent.credits, { remaining: 0, total: 5, used: 42.5 });
  const byUsage = readCredit(
    "openrouter_key",
    ok({
      data: { limit: 5, limit_reset: "daily", usage: 9, usage_daily: 5 },
    }),
    url,
    NOW,
  );
  assertEquals(
    byUsage.kind === "credits" && byUsage.dailyExhausted,
    true,
    "usage_daily ≥ limit, no remaining given",
  );
  const left = readCredit(
    "openrouter_key",
    ok({
      data: { limit: 5, limit_remaining: 3.25, limit_reset: "daily", usage: 9, usage_daily: 1.75 },
    }),
    url,
    NOW,
  );
  assertEquals(left.kind === "credits" && [left.dailyExhausted, left.empty, left.credits.remaining], [
    false,
    false,
    3.25,
  ]);
  const monthly = readCredit(
    "openrouter_key",
    ok({
      data: { limit: 20, limit_remaining: 0, limit_reset: "monthly", usage: 20 },
    }),
    url,
    NOW,
  );
  assertEquals(monthly.kind === "credits" && [monthly.dailyExhausted, monthly.empty], [false, true]);
  const unlimited = readCredit("openrouter_key", ok({ data: { limit: null, usage: 3 } }), url, NOW);
  assertEquals(unlimited.kind === "credits" && [unlimited.credits.remaining, unlimited.empty], [null, false]);
  assertEquals(readCredit("openrouter_key", { status: 401, text: "{}" }, url, NOW).kind, "invalid");
  assertEquals(readCredit("openrouter_key", { status: 500, text: "oops" }, url, NOW).kind, "unknown");
  assertEquals(readCredit("openrouter_key", ok({ nope: 1 }), url, NOW).kind, "unknown");
});

Deno.test("readCredit(): DeepSeek prefers a USD balance, converts CNY; Moonshot converts on its .cn host only", () => {
  const ds = "https://api.deepseek.com/user/balance";
  const usd = readCredit(
    "deepseek_balance",
    ok({
      is_available: true,
      balance_infos: [
        { currency: "CNY", total_balance: "100.00", granted_balance: "0", topped_up_balance: "100.00" },
        { currency: "USD", total_balance: "7.50", granted_balance: "2.50", topped_up_balance: "5.00" },
      ],
    }),
    ds,
    NOW,
  );
  assertEquals(usd.kind === "credits" && [usd.credits, usd.empty], [{
    remaining: 7.5,
    total: 7.5,
    used: null,
  }, false]);
  const cny = readCredit(
    "deepseek_balance",
    ok({
      is_available: true,
      balance_infos: [{
        currency: "CNY",
        total_balance: "110.00",
        granted_balance: "10.00",
        topped_up_balance: "100.00",
      }],
    }),
    ds,
    NOW,
  );
  assertEquals(cny.kind === "credits" && cny.credits.remaining, Math.round(110 * CNY_USD * 10_000) / 10_000);
  const empty = readCredit(
    "deepseek_balance",
    ok({
      is_available: false,
      balance_infos: [{
        currency: "CNY",
        total_balance: "0.00",
        granted_balance: "0.00",
        topped_up_balance: "0.00",
      }],
    }),
    ds,
    NOW,
  );
  assertEquals(empty.kind === "credits" && [empty.empty, empty.dailyExhausted], [true, false]);
  assertEquals(readCredit("deepseek_balance", { status: 401, text: "{}" }, ds, NOW).kind, "unknown");

  const body = ok({
    code: 0,
    data: { available_balance: 10, voucher_balance: 4, cash_balance: 6 },
    status: true,
  });
  const cn = readCredit("moonshot_balance", body, "https://api.moonshot.cn/v1/users/me/balance", NOW);
  const ai = readCredit("moonshot_balance", body, "https://api.moonshot.ai/v1/users/me/balance", NOW);
  assertEquals(cn.kind === "credits" && cn.credits.remaining, 1.38);
  assertEquals(ai.kind === "credits" && ai.credits.remaining, 10);
});
