import { GatewayError } from "../../../src/model/mod.ts";
import type { NeutralResponse } from "../../../src/model/mod.ts";
import { messagesCodec } from "../../../src/wire/messages/mod.ts";
import { openReasoning } from "../../../src/wire/shared/reasoning_envelope.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

const ctx = { requestModel: "anth/claude-sonnet-4-5", now: 1_700_000_000 };

const upstreamAnswer = {
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5-20250929",
  content: [
    { type: "thinking", thinking: "Let me look.", signature: "EqQBCkYIBxgCKkD" },
    { type: "text", text: "I'll read it." },
    { type: "tool_use", id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "Read", input: { file_path: "/a.ts" } },
  ],
  stop_reason: "tool_use",
  stop_sequence: null,
  usage: {
    input_tokens: 12,
    cache_creation_input_tokens: 300,
    cache_read_input_tokens: 4000,
    output_tokens: 85,
    service_tier: "standard",
    cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 0 },
  },
};

Deno.test("decodeResponse() folds the three input buckets into the total, cache buckets as subsets", () => {
  const response = messagesCodec.decodeResponse(upstreamAnswer);
  assertEquals(response.usage, {
    inputTotal: 4312,
    cacheRead: 4000,
    cacheWrite: 300,
    output: 85,
    reasoning: 0,
  });
  assertEquals(response.finish, { unified: "tool_calls", raw: "tool_use" });
  assertEquals(response.model, "claude-sonnet-4-5-20250929");
  assertEquals(response.parts, [
    { kind: "reasoning", text: "Let me look.", signature: "EqQBCkYIBxgCKkD", family: "anthropic" },
    { kind: "text", text: "I'll read it." },
    {
      kind: "toolCall",
      id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
      name: "Read",
      arguments: '{"file_path":"/a.ts"}',
    },
  ]);
});

Deno.test("encodeResponse() reproduces an upstream answer decoded from the same format", () => {
  const encoded = messagesCodec.encodeResponse(messagesCodec.decodeResponse(upstreamAnswer), ctx);
  assertEquals(encoded, { ...upstreamAnswer, model: ctx.requestModel });
});

Deno.test("encodeResponse() unfolds usage: input_tokens is the uncached part only", () => {
  const response: NeutralResponse = {
    id: "chatcmpl-abc",
    model: "gpt-x",
    parts: [{ kind: "text", text: "hi" }],
    finish: { unified: "length", raw: "length" },
    usage: { inputTotal: 1000, cacheRead: 800, cacheWrite: 0, output: 20, reasoning: 5 },
  };
  assertEquals(messagesCodec.encodeResponse(response, ctx), {
    id: "msg_chatcmpl-abc",
    type: "message",
    role: "assistant",
    model: ctx.requestModel,
    content: [{ type: "text", text: "hi" }],
    stop_reason: "max_tokens",
    stop_sequence: null,
    usage: {
      input_tokens: 200,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 800,
      output_tokens: 20,
    },
  });
});

Deno.test("encodeResponse() maps neutral finishes back and keeps raw messages stop reasons", () => {
  const finishOf = (response: Partial<NeutralResponse>) =>
    (messagesCodec.encodeResponse({
      id: "msg_1",
      model: "m",
      parts: [],
      finish: { unified: "stop", raw: null },
      usage: { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
      ...response,
    }, ctx) as { stop_reason: string }).stop_reason;
  assertEquals(finishOf({ finish: { unified: "stop", raw: "STOP" } }), "end_turn");
  assertEquals(finishOf({ finish: { unified: "stop", raw: "stop_sequence" } }), "stop_sequence");
  assertEquals(finishOf({ finish: { unified: "tool_calls", raw: "tool_calls" } }), "tool_use");
  assertEquals(finishOf({ finish: { unified: "content_filter", raw: "content_filter" } }), "refusal");
  assertEquals(finishOf({ finish: { unified: "other", raw: "pause_turn" } }), "pause_turn");
  assertEquals(finishOf({ finish: { unified: "error", raw: "MALFORMED" } }), "end_turn");
  // Gemini reports STOP after a function call; agent loops need tool_use.
  assertEquals(
    finishOf({
      finish: { unified: "stop", raw: "STOP" },
      parts: [{ kind: "toolCall", id: "c", name: "f", arguments: "{}" }],
    }),
    "tool_use",
  );
});

Deno.test("encodeResponse() sanitises tool ids, survives bad arguments and seals foreign reasoning tokens in the signature", () => {
  const encoded = messagesCodec.encodeResponse({
    id: "",
    model: "m",
    parts: [
      { kind: "reasoning", text: "gpt thoughts", redactedData: "enc", family: "openai" },
      { kind: "reasoning", text: "visible", family: "google", signature: "g" },
      { kind: "reasoning", text: "unsigned", family: "other" },
      { kind: "toolCall", id: "call:1/2", name: "f", arguments: "[1,2]" },
      { kind: "toolCall", id: "call_3", name: "g", arguments: "{broken" },
    ],
    finish: { unified: "tool_calls", raw: "tool_calls" },
    usage: { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
  }, ctx) as {
    id: string;
    content: { type: string; thinking?: string; signature?: string; [k: string]: unknown }[];
  };
  const [openai, google, unsigned, ...calls] = encoded.content;
  assertEquals([openai.thinking, google.thinking], ["gpt thoughts", "visible"]);
  assertEquals(openReasoning(openai.signature!), { family: "openai", redactedData: "enc" });
  assertEquals(openReasoning(google.signature!), { family: "google", signature: "g" });
  // Unsigned reasoning has nothing opaque to carry: an empty signature marks it unsigned.
  assertEquals(unsigned, { type: "thinking", thinking: "unsigned", signature: "" });
  assertEquals(calls, [
    { type: "tool_use", id: "call_1_2", name: "f", input: {} },
    { type: "tool_use", id: "call_3", name: "g", input: {} },
  ]);
  assertEquals(encoded.id.startsWith("msg_"), true);
});

Deno.test("decodeResponse() turns an error body or a non-message body into a 502", () => {
  const error = assertThrows(
    () =>
      messagesCodec.decodeResponse({
        type: "error",
        error: { type: "overloaded_error", message: "Overloaded" },
      }),
    GatewayError,
    "overloaded_error",
  );
  assertEquals([error.status, error.kind], [502, "upstream"]);
  const shapeless = assertThrows(() => messagesCodec.decodeResponse({ id: "x" }), GatewayError, "type");
  assertEquals([shapeless.status, shapeless.kind], [502, "upstream"]);
  assertThrows(
    () => messagesCodec.decodeResponse({ id: "x", type: "message", model: "m" }),
    GatewayError,
    "content",
  );
});
