import { assertEquals } from "../helpers/assert.ts";
import { bareModelName, capabilitiesFor, parseThinkingSuffix } from "../../src/adjustments/mod.ts";

Deno.test("capabilitiesFor() knows the common families by name pattern", () => {
  const cases: [string, boolean | null, boolean | null, string | null][] = [
    ["claude-sonnet-4-5-20250929", true, true, "anthropic_budget"],
    ["claude-3-5-sonnet-20241022", true, false, "none"],
    ["gpt-4o-mini", true, false, "none"],
    ["gpt-4.1", true, false, "none"],
    ["gpt-5-mini", true, true, "openai_effort"],
    ["o3-mini", true, true, "openai_effort"],
    ["o1-mini", false, true, "openai_effort"],
    ["gemini-2.5-flash", true, true, "google_budget"],
    ["gemini-3-pro-preview", true, true, "google_level"],
    ["deepseek-reasoner", false, true, "none"],
    ["deepseek-chat", false, false, "none"],
    ["llama-3.1-70b-instruct", false, false, "none"],
    ["mistral-large-latest", null, null, null],
    ["totally-new-model", null, null, null],
  ];
  for (const [model, vision, reasoning, format] of cases) {
    const caps = capabilitiesFor(model);
    assertEquals([caps.vision, caps.reasoning, caps.thinkingFormat], [vision, reasoning, format], model);
  }
});

Deno.test("capabilitiesFor() strips provider paths, suffixes and vendor prefixes before matching", () => {
  assertEquals(bareModelName("openrouter/anthropic/claude-opus-4.1(high)"), "claude-opus-4.1");
  assertEquals(bareModelName("us.anthropic.claude-sonnet-4-20250514-v1:0"), "claude-sonnet-4-20250514-v1:0");
  assertEquals(bareModelName("models/gemini-2.5-pro"), "gemini-2.5-pro");
  assertEquals(capabilitiesFor("openai/GPT-4o").vision, true);
});

Deno.test("capabilitiesFor() lets config overrides win, field by field", () => {
  const caps = capabilitiesFor("llama-3.1-8b", { vision: true, contextWindow: 32_000 });
  assertEquals([caps.vision, caps.reasoning, caps.contextWindow], [true, false, 32_000]);
  assertEquals(capabilitiesFor("my-finetune", { reasoning: false }).vision, null);
});

Deno.test("parseThinkingSuffix() reads levels and budgets and leaves other parentheses alone", () => {
  assertEquals(parseThinkingSuffix("x/claude-sonnet-4(high)"), {
    model: "x/claude-sonnet-4",
    intent: { effort: "high" },
  });
  assertEquals(parseThinkingSuffix("x/gemini-2.5-pro(8192)"), {
    model: "x/gemini-2.5-pro",
    intent: { budgetTokens: 8192 },
  });
  assertEquals(parseThinkingSuffix("x/m(none)").intent, { effort: "none" });
  assertEquals(parseThinkingSuffix("x/m(off)").intent, { effort: "none" });
  assertEquals(parseThinkingSuffix("x/m(XHIGH)").intent, { effort: "xhigh" });
  assertEquals(parseThinkingSuffix("x/m(minimal)").intent, { effort: "minimal" });
  assertEquals(parseThinkingSuffix("x/m(preview)"), { model: "x/m(preview)" });
  assertEquals(parseThinkingSuffix("x/plain-model"), { model: "x/plain-model" });
});
