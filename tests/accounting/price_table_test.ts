import { assertEquals } from "../helpers/assert.ts";
import { buildPriceTable, BUILTIN_PRICES, lookupPrice, type Price } from "../../src/accounting/mod.ts";

const table = buildPriceTable(BUILTIN_PRICES, {});

function matched(model: string): string | null {
  return lookupPrice(table, model)?.model ?? null;
}

Deno.test("BUILTIN_PRICES holds exactly the spec's 28 entries", () => {
  assertEquals(Object.keys(BUILTIN_PRICES).length, 28);
  assertEquals(BUILTIN_PRICES["claude-opus-4-20250514"], {
    inputPerMtok: 15,
    outputPerMtok: 75,
    cacheCreationPerMtok: 18.75,
    cacheReadPerMtok: 1.5,
  });
  assertEquals(BUILTIN_PRICES["gemini-1.5-flash-8b"].cacheReadPerMtok, 0.009375);
  assertEquals(BUILTIN_PRICES["glm-4.7"].outputPerMtok, 2.2);
});

Deno.test("lookupPrice() matches the full name exactly first", () => {
  assertEquals(matched("gpt-4o"), "gpt-4o");
  assertEquals(matched("gpt-4.1-nano"), "gpt-4.1-nano");
});

Deno.test("lookupPrice() falls back to the part after the last slash", () => {
  assertEquals(matched("openai/gpt-4o"), "gpt-4o");
  assertEquals(matched("openrouter/deepseek/deepseek-chat"), "deepseek-chat");
});

Deno.test("lookupPrice() tries ever shorter dash-separated prefixes, longest first", () => {
  assertEquals(matched("openai/gpt-4o-mini-2024-07-18"), "gpt-4o-mini");
  assertEquals(matched("gpt-4o-2024-08-06"), "gpt-4o");
  assertEquals(matched("o3-mini"), "o3");
  assertEquals(matched("gemini-2.0-flash-lite-001"), "gemini-2.0-flash-lite");
});

Deno.test("lookupPrice() does not stretch a dated key to a different model", () => {
  assertEquals(matched("claude-sonnet-4-5-20250929"), null);
  assertEquals(matched("unknown-model"), null);
});

Deno.test("lookupPrice() ignores a thinking suffix, a :tag and letter case", () => {
  assertEquals(matched("anthropic/claude-sonnet-4-20250514(high)"), "claude-sonnet-4-20250514");
  assertEquals(matched("openrouter/meta-llama/llama-3.3-70b-instruct:free"), "llama-3.3-70b-instruct");
  assertEquals(matched("GPT-4o"), "gpt-4o");
});

Deno.test("buildPriceTable() lets an override win over the builtin of the same model", () => {
  const cheap: Price = { inputPerMtok: 1, outputPerMtok: 2, cacheCreationPerMtok: 0, cacheReadPerMtok: 0.5 };
  const withOverride = buildPriceTable(BUILTIN_PRICES, { "gpt-4o": cheap });
  assertEquals(lookupPrice(withOverride, "openai/gpt-4o-2024-08-06"), { model: "gpt-4o", price: cheap });
  assertEquals(lookupPrice(withOverride, "gpt-4o-mini")?.price, BUILTIN_PRICES["gpt-4o-mini"]);
});

Deno.test("lookupPrice() prefers a namespaced override over the bare builtin", () => {
  const routed: Price = { inputPerMtok: 9, outputPerMtok: 9, cacheCreationPerMtok: 0, cacheReadPerMtok: 0 };
  const t = buildPriceTable(BUILTIN_PRICES, { "openrouter/gpt-4o": routed });
  assertEquals(lookupPrice(t, "openrouter/gpt-4o-2024-08-06")?.model, "openrouter/gpt-4o");
  assertEquals(lookupPrice(t, "openai/gpt-4o-2024-08-06")?.model, "gpt-4o");
});
