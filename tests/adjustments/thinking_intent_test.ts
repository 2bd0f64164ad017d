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

/** Runs applyThinkingIntent and returns the result with the codes of what it reported. */
function adjusted(input: ReturnType<typeof request>, to: ReturnType<typeof target>) {
  const codes: string[] = [];
  const out = applyThinkingIntent(input, to, (w) => codes.push(w.code));
  return { out, codes };
}

Deno.test("applyThinkingIntent() reports every setting it could not keep as a typed warning", () => {
  const high = request([], { reasoning: { effort: "high", includeThoughts: true } });
  assertEquals(adjusted(high, target("gpt-4o", "chat_completions")).codes, ["dropped_field:reasoning"]);
  // Asking a model that does not reason not to reason loses nothing.
  const off = request([], { reasoning: { effort: "none" } });
  assertEquals(adjusted(off, target("gpt-4o", "chat_completions")).codes, []);
  assertEquals(adjusted(off, target("o3", "chat_completions")).codes, ["changed_field:reasoning_effort"]);
  const xhigh = request([], { reasoning: { effort: "xhigh" } });
  assertEquals(adjusted(xhigh, target("gemini-3-pro", "generate_content")).codes, [
    "changed_field:reasoning_effort",
  ]);
  assertEquals(adjusted(xhigh, target("gpt-5", "responses")).codes, []);
  const budget = request([], { reasoning: { budgetTokens: 300 }, params: { maxTokens: 800 } });
  assertEquals(adjusted(budget, target("claude-sonnet-4", "messages")).codes, [
    "changed_field:max_tokens",
    "changed_field:thinking_budget",
  ]);
  assertEquals(adjusted(budget, target("gpt-5", "chat_completions")).codes, [
    "changed_field:reasoning_budget",
  ]);
  const huge = request([], { reasoning: { budgetTokens: 60_000 } });
  assertEquals(adjusted(huge, target("gemini-2.5-flash", "generate_content")).codes, [
    "changed_field:thinking_budget",
  ]);
  // What every upstream can honour as asked passes without a word.
  const medium = request([], { reasoning: { effort: "medium", includeThoughts: true } });
  for (const [model, format] of [["gpt-5", "responses"], ["claude-sonnet-4", "messages"]] as const) {
    assertEquals(adjusted(medium, target(model, format)).codes, []);
  }
  assertEquals(adjusted(medium, target("gemini-2.5-flash", "generate_content")).codes, []);
});
