import type { NeutralRequest } from "../../../src/model/mod.ts";
import { DEFAULT_MAX_TOKENS, messagesCodec } from "../../../src/wire/messages/mod.ts";
import { toolIdFor } from "../../../src/wire/shared/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";

const encode = (request: NeutralRequest) => messagesCodec.encodeRequest(request, "claude-sonnet-4-5");

function neutral(fields: Partial<NeutralRequest>): NeutralRequest {
  return {
    model: "x/m",
    system: [],
    messages: [],
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
    ...fields,
  };
}

Deno.test("encodeRequest() reproduces a messages body decoded from the same format, unknown fields included", () => {
  const body = {
    model: "claude-sonnet-4-5",
    max_tokens: 32000,
    system: [
      { type: "text", text: "You are Claude Code." },
      { type: "text", text: "Rules", cache_control: { type: "ephemeral" } },
    ],
    messages: [
      {
        role: "user",
        content: [{ type: "text", text: "fix it", cache_control: { type: "ephemeral", ttl: "1h" } }],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "EqQBCkYIB" },
          { type: "redacted_thinking", data: "EmwKAhgBEgy" },
          { type: "text", text: "Reading", citations: null },
          { type: "tool_use", id: "toolu_01A", name: "Read", input: { file_path: "/a.ts" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_01A", content: "const a = 1;", is_error: false },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
          { type: "text", text: "now?" },
        ],
      },
    ],
    tools: [
      {
        name: "Read",
        description: "Reads a file",
        input_schema: {
          type: "object",
          properties: { file_path: { type: "string" } },
          required: ["file_path"],
        },
        cache_control: { type: "ephemeral" },
      },
      { type: "web_search_20250305", name: "web_search", max_uses: 5 },
    ],
    tool_choice: { type: "auto", disable_parallel_tool_use: true },
    thinking: { type: "enabled", budget_tokens: 10000 },
    metadata: { user_id: "user_abc" },
    context_management: { edits: [{ type: "clear_tool_uses_20250919" }] },
    stream: true,
  };
  const request = messagesCodec.decodeRequest(body, {});
  const { body: encoded, warnings } = encode(request);
  assertEquals(encoded, body);
  assertEquals(warnings, []);
});

Deno.test("encodeRequest() keeps string system and content as strings, and adaptive thinking verbatim", () => {
  const body = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: "Be brief.",
    messages: [{ role: "user", content: "hi" }],
    thinking: { type: "adaptive", display: "summarized" },
    output_config: { effort: "medium", format: { type: "json_schema", schema: { type: "object" } } },
    top_k: 5,
    stop_sequences: ["###"],
  };
  const encoded = encode(messagesCodec.decodeRequest(body, {}));
  // top_k is rejected with thinking on, so it is the one change (reported).
  const { top_k: _, ...expected } = body;
  assertEquals(encoded.body, expected);
  assertEquals(encoded.warnings.map((w) => [w.code, w.message]), [[
    "dropped_field:top_k",
    "top_k dropped: the API rejects it with thinking on",
  ]]);
});

Deno.test("encodeRequest() merges tool messages and the following user message, tool results first", () => {
  const { body } = encode(neutral({
    messages: [
      { role: "user", parts: [{ kind: "text", text: "go" }] },
      {
        role: "assistant",
        parts: [
          { kind: "toolCall", id: "call_1", name: "a", arguments: "{}" },
          { kind: "toolCall", id: "call_2", name: "b", arguments: '{"x":1}' },
        ],
      },
      {
        role: "tool",
        parts: [{ kind: "toolResult", callId: "call_1", content: [{ kind: "text", text: "A" }] }],
      },
      {
        role: "tool",
        parts: [{ kind: "toolResult", callId: "call_2", content: [{ kind: "text", text: "B" }] }],
      },
      { role: "user", parts: [{ kind: "text", text: "thanks" }] },
      { role: "user", parts: [{ kind: "text", text: "" }] },
    ],
  }));
  assertEquals(body.messages, [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "call_1", name: "a", input: {} },
        { type: "tool_use", id: "call_2", name: "b", input: { x: 1 } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "call_1", content: "A" },
        { type: "tool_result", tool_use_id: "call_2", content: "B" },
        { type: "text", text: "thanks" },
      ],
    },
  ]);
});

Deno.test("encodeRequest() rewrites tool ids the same way on tool_use and tool_result", () => {
  const id = "functions.read_file:0|fc_" + "x".repeat(80);
  const { body } = encode(neutral({
    messages: [
      { role: "user", parts: [{ kind: "text", text: "go" }] },
      { role: "assistant", parts: [{ kind: "toolCall", id, name: "read_file", arguments: "not json" }] },
      { role: "tool", parts: [{ kind: "toolResult", callId: id, content: [], isError: true }] },
    ],
  }));
  const messages = body.messages as { content: { id?: string; tool_use_id?: string; input?: unknown }[] }[];
  const useId = messages[1].content[0].id!;
  assertEquals(messages[2].content[0].tool_use_id, useId);
  assertEquals(useId, toolIdFor(id));
  assert(/^[A-Za-z0-9_-]+$/.test(useId), useId);
  assertEquals(messages[1].content[0].input, {});
  assertEquals<unknown>(messages[2].content[0], { type: "tool_result", tool_use_id: useId, is_error: true });
});

Deno.test("encodeRequest() replays signed Anthropic reasoning and drops other families with a warning", () => {
  const { body, warnings } = encode(neutral({
    messages: [
      { role: "user", parts: [{ kind: "text", text: "q" }] },
      {
        role: "assistant",
        parts: [
          { kind: "reasoning", text: "mine", signature: "sig-a", family: "anthropic" },
          { kind: "reasoning", text: "", redactedData: "blob", family: "anthropic" },
          { kind: "reasoning", text: "gemini thought", signature: "g-sig", family: "google" },
          { kind: "reasoning", text: "", redactedData: "enc", family: "openai" },
          { kind: "reasoning", text: "unsigned" },
          { kind: "text", text: "answer" },
        ],
      },
    ],
  }));
  assertEquals((body.messages as { content: unknown }[])[1].content, [
    { type: "thinking", thinking: "mine", signature: "sig-a" },
    { type: "redacted_thinking", data: "blob" },
    { type: "text", text: "answer" },
  ]);
  assertEquals(warnings.map((w) => [w.code, w.detail]), [["dropped_part:reasoning", { count: 3 }]]);
  assertStringIncludes(warnings[0].message, "dropped 3 reasoning block(s)");
});

Deno.test("encodeRequest() derives a thinking budget from effort and keeps max_tokens above it", () => {
  const { body, warnings } = encode(
    neutral({ reasoning: { effort: "medium" }, params: { temperature: 0.5 } }),
  );
  assertEquals(body.thinking, { type: "enabled", budget_tokens: 8192 });
  assertEquals(body.max_tokens, 8192 + DEFAULT_MAX_TOKENS);
  assertEquals(body.temperature, undefined);
  assertEquals(warnings.map((w) => w.code), ["changed_field:max_tokens", "dropped_field:temperature"]);

  const budget = encode(neutral({ reasoning: { budgetTokens: 3000 }, params: { maxTokens: 16000 } })).body;
  assertEquals(budget.thinking, { type: "enabled", budget_tokens: 3000 });
  assertEquals(budget.max_tokens, 16000);

  const small = encode(neutral({ reasoning: { budgetTokens: 200 } }));
  assertEquals(small.body.thinking, { type: "enabled", budget_tokens: 1024 });
  assertEquals(small.warnings[0].code, "changed_field:thinking_budget");
  assertStringIncludes(small.warnings[0].message, "raised to 1024");

  assertEquals(encode(neutral({ reasoning: { effort: "none" } })).body.thinking, undefined);
  assertEquals(encode(neutral({ reasoning: { budgetTokens: 0 } })).body.thinking, undefined);
});

Deno.test("encodeRequest() uses the default max_tokens, maps tool choice and never sends empty tools", () => {
  const plain = encode(neutral({ toolChoice: { type: "required" }, messages: [] })).body;
  assertEquals(plain.max_tokens, DEFAULT_MAX_TOKENS);
  assertEquals("tools" in plain, false);
  assertEquals("tool_choice" in plain, false);

  const tools = [{ name: "f", parameters: {} }];
  assertEquals(encode(neutral({ tools, toolChoice: { type: "required" } })).body.tool_choice, {
    type: "any",
  });
  assertEquals(encode(neutral({ tools, toolChoice: { type: "tool", name: "f" } })).body.tool_choice, {
    type: "tool",
    name: "f",
  });
  assertEquals(encode(neutral({ tools })).body.tools, [{ name: "f", input_schema: { type: "object" } }]);
});

Deno.test("encodeRequest() drops thinking when tool_choice forces a tool", () => {
  const { body, warnings } = encode(neutral({
    tools: [{ name: "f", parameters: { type: "object" } }],
    toolChoice: { type: "tool", name: "f" },
    reasoning: { effort: "high" },
  }));
  assertEquals(body.thinking, undefined);
  assertEquals(body.max_tokens, DEFAULT_MAX_TOKENS);
  assert(warnings.some((w) => w.code === "dropped_field:thinking"), warnings.map((w) => w.code).join(", "));
});

Deno.test("encodeRequest() sends URL images as url sources and data URLs as base64", () => {
  const { body, warnings } = encode(neutral({
    messages: [{
      role: "user",
      parts: [
        { kind: "image", source: { type: "url", url: "https://x.test/a.png" }, detail: "high" },
        { kind: "image", source: { type: "url", url: "data:image/jpeg;base64,/9j/4AAQ" } },
      ],
    }],
  }));
  assertEquals((body.messages as { content: unknown }[])[0].content, [
    { type: "image", source: { type: "url", url: "https://x.test/a.png" } },
    { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
  ]);
  assertEquals(warnings.map((w) => [w.code, w.message]), [[
    "dropped_field:image_detail",
    "image detail hints cannot be expressed in the messages format",
  ]]);
});

Deno.test("encodeRequest() reports parameters the messages format cannot express", () => {
  const { body, warnings } = encode(neutral({
    params: { seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2, stop: ["x"], topP: 0.5 },
    stream: true,
    system: [{ kind: "text", text: "sys" }],
  }));
  assertEquals(body.stop_sequences, ["x"]);
  assertEquals(body.top_p, 0.5);
  assertEquals(body.stream, true);
  assertEquals(body.system, "sys");
  assertEquals(warnings.map((w) => w.code), [
    "dropped_field:seed",
    "dropped_field:presence_penalty",
    "dropped_field:frequency_penalty",
  ]);
});

Deno.test("encodeRequest() ignores extra fields that came from another format", () => {
  const { body } = encode(neutral({ extra: { format: "chat_completions", fields: { logprobs: true } } }));
  assertEquals("logprobs" in body, false);
});
