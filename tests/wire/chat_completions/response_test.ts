import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import type { NeutralResponse, UnifiedFinish } from "../../../src/model/mod.ts";
import { chatCompletionsCodec } from "../../../src/wire/chat_completions/mod.ts";

const codec = chatCompletionsCodec;
const CTX = { requestModel: "openai/gpt-4o", now: 1_700_000_000 };

const COMPLETION = {
  id: "chatcmpl-abc123",
  object: "chat.completion",
  created: 1_699_999_999,
  model: "gpt-4o-2024-08-06",
  system_fingerprint: "fp_1",
  choices: [{
    index: 0,
    message: {
      role: "assistant",
      content: null,
      reasoning_content: "Two cities.",
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
        { id: "call_b", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
      ],
    },
    finish_reason: "tool_calls",
    logprobs: null,
  }],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 40,
    total_tokens: 140,
    prompt_tokens_details: { cached_tokens: 64 },
    completion_tokens_details: { reasoning_tokens: 12 },
  },
};

Deno.test("decodeResponse() maps content, parallel tool calls, reasoning and usage details", () => {
  const response = codec.decodeResponse(COMPLETION);
  assertEquals(response, {
    id: "chatcmpl-abc123",
    model: "gpt-4o-2024-08-06",
    created: 1_699_999_999,
    parts: [
      { kind: "reasoning", text: "Two cities." },
      { kind: "toolCall", id: "call_a", name: "weather", arguments: '{"city":"Paris"}' },
      { kind: "toolCall", id: "call_b", name: "weather", arguments: '{"city":"Rome"}' },
    ],
    finish: { unified: "tool_calls", raw: "tool_calls" },
    usage: { inputTotal: 100, cacheRead: 64, cacheWrite: 0, output: 40, reasoning: 12 },
    extra: { format: "chat_completions", fields: { system_fingerprint: "fp_1" } },
  });
});

Deno.test("decodeResponse() maps every finish_reason and keeps the raw value", () => {
  const cases: [string, UnifiedFinish][] = [
    ["stop", "stop"],
    ["length", "length"],
    ["tool_calls", "tool_calls"],
    ["function_call", "tool_calls"],
    ["content_filter", "content_filter"],
    ["insufficient_system_resource", "other"],
  ];
  for (const [raw, unified] of cases) {
    const body = { ...COMPLETION, choices: [{ index: 0, message: { content: "x" }, finish_reason: raw }] };
    assertEquals(codec.decodeResponse(body).finish, { unified, raw });
  }
});

Deno.test("decodeResponse() reads DeepSeek prompt_cache_hit_tokens and OpenRouter-style reasoning", () => {
  const response = codec.decodeResponse({
    id: "x",
    model: "deepseek-chat",
    choices: [{ message: { content: "hi", reasoning: "hmm" }, finish_reason: "stop" }],
    usage: {
      prompt_tokens: 50,
      completion_tokens: 5,
      prompt_cache_hit_tokens: 30,
      prompt_cache_miss_tokens: 20,
    },
  });
  assertEquals(response.parts, [{ kind: "reasoning", text: "hmm" }, { kind: "text", text: "hi" }]);
  assertEquals(response.usage, { inputTotal: 50, cacheRead: 30, cacheWrite: 0, output: 5, reasoning: 0 });
});

Deno.test("decodeResponse() rejects bodies that are not chat completions with a 502", () => {
  const noChoices = assertThrows(
    () => codec.decodeResponse({ id: "x", object: "list", data: [] }),
    GatewayError,
    "not a chat completion",
  );
  assertEquals([noChoices.status, noChoices.kind], [502, "upstream"]);
  const inside200 = assertThrows(
    () => codec.decodeResponse({ error: { message: "quota exhausted", type: "insufficient_quota" } }),
    GatewayError,
    "quota exhausted",
  );
  assertEquals([inside200.status, inside200.kind], [502, "upstream"]);
  assertThrows(() => codec.decodeResponse("<html>"), GatewayError, "not a JSON object");
});

Deno.test("encodeResponse() writes a chat completion with null content for tool-only answers", () => {
  const response: NeutralResponse = {
    id: "msg_01",
    model: "claude-sonnet",
    parts: [
      { kind: "reasoning", text: "think", signature: "s" },
      { kind: "toolCall", id: "toolu_1", name: "f", arguments: "{}" },
    ],
    finish: { unified: "tool_calls", raw: "tool_use" },
    usage: { inputTotal: 10, cacheRead: 4, cacheWrite: 2, output: 3, reasoning: 1 },
  };
  assertEquals(codec.encodeResponse(response, CTX), {
    id: "chatcmpl-msg_01",
    object: "chat.completion",
    created: CTX.now,
    // The model id the client asked for, not the upstream's name.
    model: CTX.requestModel,
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "f", arguments: "{}" } }],
        reasoning_content: "think",
      },
      finish_reason: "tool_calls",
      logprobs: null,
    }],
    usage: {
      prompt_tokens: 10,
      completion_tokens: 3,
      total_tokens: 13,
      prompt_tokens_details: { cached_tokens: 4, cache_write_tokens: 2 },
      completion_tokens_details: { reasoning_tokens: 1 },
    },
  });
});

Deno.test("encodeResponse() maps every unified finish to a documented finish_reason", () => {
  const base: NeutralResponse = {
    id: "chatcmpl-1",
    model: "m",
    parts: [{ kind: "text", text: "x" }],
    finish: { unified: "stop", raw: null },
    usage: { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
  };
  const expected = {
    stop: "stop",
    length: "length",
    tool_calls: "tool_calls",
    content_filter: "content_filter",
    error: "stop",
    other: "stop",
  } as const;
  for (const [unified, reason] of Object.entries(expected)) {
    const body = codec.encodeResponse(
      { ...base, finish: { unified: unified as keyof typeof expected, raw: "RAW" } },
      CTX,
    ) as { id: string; choices: { finish_reason: string }[] };
    assertEquals(body.choices[0].finish_reason, reason);
    assertEquals(body.id, "chatcmpl-1");
  }
});

Deno.test("decodeResponse() → encodeResponse() keeps a chat completion intact", () => {
  const body = {
    ...COMPLETION,
    choices: [{
      index: 0,
      message: { role: "assistant", content: "Hello", annotations: [] },
      finish_reason: "stop",
      logprobs: { content: [] },
    }],
    service_tier: "default",
  };
  // The client asked for the upstream's own name here, so the answer names it unchanged.
  assertEquals(codec.encodeResponse(codec.decodeResponse(body), { ...CTX, requestModel: body.model }), body);
});
