import { assert, assertEquals } from "../helpers/assert.ts";
import { applyThinkingIntent } from "../../src/adjustments/mod.ts";
import { request, target } from "./fixtures.ts";

Deno.test("applyThinkingIntent() leaves a request without intent alone", () => {
  const input = request();
  assert(applyThinkingIntent(input, target("claude-sonnet-4", "messages")) === input);
});

Deno.test("applyThinkingIntent() drops the intent for models that do not reason", () => {
  const out = applyThinkingIntent(
    request([], { reasoning: { effort: "high" } }),
    target("gpt-4o", "chat_completions"),
  );
  assertEquals(out.reasoning, undefined);
});

Deno.test("applyThinkingIntent() raises an Anthropic budget to 1024 and max_tokens above the budget", () => {
  const input = request([], { reasoning: { budgetTokens: 300 }, params: { maxTokens: 800 } });
  const out = applyThinkingIntent(input, target("claude-sonnet-4", "messages"));
  assertEquals(out.reasoning, { budgetTokens: 1024 });
  assertEquals(out.params.maxTokens, 1824);
});

Deno.test("applyThinkingIntent() caps a budget at the model's maximum", () => {
  const input = request([], { reasoning: { budgetTokens: 100_000 }, params: { maxTokens: 200_000 } });
  const out = applyThinkingIntent(
    input,
    target("claude-x", "messages", { capabilities: { maxThinkingBudget: 32_000 } }),
  );
  assertEquals(out.reasoning, { budgetTokens: 32_000 });
  const gemini = applyThinkingIntent(
    request([], { reasoning: { budgetTokens: 60_000 } }),
    target("gemini-2.5-flash", "generate_content"),
  );
  assertEquals(gemini.reasoning, { budgetTokens: 24_576 });
});

Deno.test("applyThinkingIntent() turns budgets into efforts for OpenAI and levels for Gemini 3", () => {
  const openai = applyThinkingIntent(
    request([], { reasoning: { budgetTokens: 8192 } }),
    target("gpt-5", "responses"),
  );
  assertEquals(openai.reasoning, { effort: "medium" });
  const gemini3 = applyThinkingIntent(
    request([], { reasoning: { effort: "xhigh", includeThoughts: true } }),
    target("gemini-3-pro", "generate_content"),
  );
  assertEquals(gemini3.reasoning, { effort: "high", includeThoughts: true });
});

Deno.test("applyThinkingIntent() raises none to the lowest level for models that cannot stop thinking", () => {
  const o3 = applyThinkingIntent(
    request([], { reasoning: { effort: "none" } }),
    target("o3", "chat_completions"),
  );
  assertEquals(o3.reasoning, { effort: "low" });
  const pro = applyThinkingIntent(
    request([], { reasoning: { budgetTokens: 0 } }),
    target("gemini-2.5-pro", "generate_content"),
  );
  assertEquals(pro.reasoning, { effort: "minimal" });
  const gpt5 = applyThinkingIntent(
    request([], { reasoning: { effort: "none" } }),
    target("gpt-5", "chat_completions"),
  );
  assertEquals(gpt5.reasoning, { effort: "none" });
});

Deno.test("applyThinkingIntent() keeps an intent for an unknown model on a format without a default", () => {
  const input = request([], { reasoning: { effort: "high" } });
  assert(applyThinkingIntent(input, target("some-local-model", "local_runner")) === input);
});
