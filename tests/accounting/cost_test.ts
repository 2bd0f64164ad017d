import { assertEquals } from "../helpers/assert.ts";
import { buildPriceTable, BUILTIN_PRICES, costOf, lookupPrice } from "../../src/accounting/mod.ts";
import type { Usage } from "../../src/model/usage.ts";

const sonnet = BUILTIN_PRICES["claude-sonnet-4-20250514"];

function usage(inputTotal: number, cacheWrite: number, cacheRead: number, output: number): Usage {
  return { inputTotal, cacheWrite, cacheRead, output, reasoning: 0 };
}

Deno.test("costOf() bills the uncached rest of the input total and each cache bucket at its rate", () => {
  // 3000 uncached × $3 + 2000 write × $3.75 + 5000 read × $0.30 + 1000 out × $15 = $0.033
  assertEquals(costOf(usage(10_000, 2_000, 5_000, 1_000), sonnet), 0.033);
});

Deno.test("costOf() bills plain input and output without cache buckets", () => {
  // 1M in × $2.50 + 0.5M out × $10 = $7.50
  assertEquals(costOf(usage(1_000_000, 0, 0, 500_000), BUILTIN_PRICES["gpt-4o"]), 7.5);
});

Deno.test("costOf() never bills negative uncached input when buckets exceed the total", () => {
  // Only the 200 read tokens at $0.30/M count: $0.00006
  assertEquals(costOf(usage(100, 0, 200, 0), sonnet), 0.00006);
});

Deno.test("costOf() is 0 for a model with no price", () => {
  const table = buildPriceTable(BUILTIN_PRICES, {});
  assertEquals(costOf(usage(1000, 0, 0, 1000), lookupPrice(table, "mystery/model-x")?.price ?? null), 0);
});
