import { assert, assertEquals } from "../../helpers/assert.ts";
import type { NeutralRequest } from "../../../src/model/mod.ts";
import { chatCompletionsCodec } from "../../../src/wire/chat_completions/mod.ts";
import { TOOLS } from "./tools_fixture.ts";

const codec = chatCompletionsCodec;

function decode(body: unknown): NeutralRequest {
  return codec.decodeRequest(body, {});
}

Deno.test("encodeRequest() of a same-format request keeps every client field except the model", () => {
  const body = {
    model: "openai/gpt-4o",
    messages: [
      { role: "developer", content: "Rules." },
      { role: "user", content: [{ type: "text", text: "hi", custom: "x" }], name: "ann" },
      {
        role: "assistant",
        content: "calling",
        refusal: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "done" },
    ],
    tools: TOOLS,
    tool_choice: "auto",
    response_format: { type: "json_schema", json_schema: { name: "x", schema: {} } },
    seed: 42,
    metadata: { trace: "t1" },
    parallel_tool_calls: false,
    temperature: 0.5,
    max_tokens: 64,
    stop: ["\n\n"],
    user: "u-1",
  };
  const { body: encoded, warnings } = codec.encodeRequest(decode(body), "gpt-4o-2024-08-06");
  assertEquals(encoded, { ...body, model: "gpt-4o-2024-08-06" });
  assertEquals(warnings, []);
});

Deno.test("encodeRequest() sets stream_options.include_usage on streams and keeps other stream options", () => {
  const request = decode({
    model: "m",
    messages: [{ role: "user", content: "x" }],
    stream: true,
    stream_options: { include_usage: false, include_obfuscation: false },
  });
  const { body } = codec.encodeRequest(request, "up");
  assertEquals(body.stream, true);
  assertEquals(body.stream_options, { include_usage: true, include_obfuscation: false });
  const plain = codec.encodeRequest({ ...request, stream: false }, "up").body;
  assertEquals(plain.stream, undefined);
  assertEquals(plain.stream_options, undefined);
});

Deno.test("encodeRequest() never sends empty tools or tool_calls, nor tool_choice without tools", () => {
  const request = decode({
    model: "m",
    messages: [{ role: "user", content: "x" }, { role: "assistant", content: "y", tool_calls: [] }],
    tools: [],
    tool_choice: "auto",
    parallel_tool_calls: true,
  });
  const { body } = codec.encodeRequest(request, "up");
  assertEquals(body, {
    model: "up",
    messages: [{ role: "user", content: "x" }, { role: "assistant", content: "y" }],
  });
});

Deno.test("encodeRequest() from another format splits tool results, encodes images and reasoning, and warns", () => {
  const request: NeutralRequest = {
    model: "a/b",
    source: "messages",
    system: [{ kind: "text", text: "sys", cacheControl: { type: "ephemeral" } }],
    messages: [
      {
        role: "user",
        parts: [{ kind: "image", source: { type: "base64", mediaType: "image/png", data: "AAA" } }],
      },
      {
        role: "assistant",
        parts: [
          { kind: "reasoning", text: "plan", signature: "sig", family: "anthropic" },
          { kind: "text", text: "Two calls." },
          { kind: "toolCall", id: "t1", name: "a", arguments: '{"x":1}' },
          { kind: "toolCall", id: "t2", name: "b", arguments: "" },
        ],
      },
      {
        role: "user",
        parts: [
          { kind: "toolResult", callId: "t1", content: [{ kind: "text", text: "r1" }] },
          {
            kind: "toolResult",
            callId: "t2",
            content: [{ kind: "text", text: "r2" }, { kind: "text", text: "r3" }],
          },
          { kind: "text", text: "continue" },
        ],
      },
    ],
    tools: [{ name: "a", parameters: { type: "object" } }, { name: "b", parameters: { type: "object" } }],
    toolChoice: { type: "required" },
    params: { maxTokens: 10, topK: 5 },
    reasoning: { budgetTokens: 4000 },
    stream: false,
    extra: { format: "messages", fields: { metadata: { user_id: "x" } } },
  };
  const { body, warnings } = codec.encodeRequest(request, "o3-mini");
  assertEquals(body, {
    model: "o3-mini",
    messages: [
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAA" } }] },
      {
        role: "assistant",
        content: "Two calls.",
        tool_calls: [
          { id: "t1", type: "function", function: { name: "a", arguments: '{"x":1}' } },
          { id: "t2", type: "function", function: { name: "b", arguments: "{}" } },
        ],
        reasoning_content: "plan",
      },
      { role: "tool", tool_call_id: "t1", content: "r1" },
      { role: "tool", tool_call_id: "t2", content: "r2\nr3" },
      { role: "user", content: "continue" },
    ],
    tools: [
      { type: "function", function: { name: "a", parameters: { type: "object" } } },
      { type: "function", function: { name: "b", parameters: { type: "object" } } },
    ],
    tool_choice: "required",
    max_completion_tokens: 10,
    reasoning_effort: "medium",
  });
  const codes = warnings.map((w) => w.code);
  for (
    const code of [
      "dropped_field:cache_control",
      "dropped_part:signature",
      "dropped_field:top_k",
      "changed_field:reasoning_budget",
    ]
  ) {
    assert(codes.includes(code), `${code} among ${codes.join(", ")}`);
  }
  assert(warnings.some((w) => w.message.includes("cacheControl on system text")));
});

Deno.test("encodeRequest() puts each tool result of one tool message in its own tool message", () => {
  const request: NeutralRequest = {
    model: "m",
    source: "generate_content",
    system: [],
    messages: [{
      role: "tool",
      parts: [
        { kind: "toolResult", callId: "c1", name: "f", content: [{ kind: "text", text: "1" }] },
        { kind: "toolResult", callId: "c2", name: "f", content: [{ kind: "text", text: "2" }] },
      ],
    }],
    tools: [],
    params: {},
    stream: false,
  };
  assertEquals(codec.encodeRequest(request, "m").body.messages, [
    { role: "tool", tool_call_id: "c1", content: "1" },
    { role: "tool", tool_call_id: "c2", content: "2" },
  ]);
});

Deno.test("decodeRequest() → encodeRequest() round-trips images, parallel tool calls and cache hints", () => {
  const body = {
    model: "m",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "look", cache_control: { type: "ephemeral" } },
          { type: "image_url", image_url: { url: "https://x.test/i.png", detail: "low" } },
          { type: "image_url", image_url: { url: "data:image/webp;base64,UklG" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        reasoning_content: "r",
        tool_calls: [
          { id: "a", type: "function", function: { name: "f", arguments: '{"i":1}' } },
          { id: "b", type: "function", function: { name: "f", arguments: '{"i":2}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "one" },
      {
        role: "tool",
        tool_call_id: "b",
        content: [{ type: "text", text: "two" }, { type: "text", text: "2" }],
      },
    ],
  };
  assertEquals(codec.encodeRequest(decode(body), "m").body, body);
});

Deno.test("encodeRequest() gives a Gemini 3 step's first call without a signature Google's skip value, with a warning", () => {
  const request: NeutralRequest = {
    model: "m",
    system: [],
    messages: [
      { role: "user", parts: [{ kind: "text", text: "weather?" }] },
      {
        role: "assistant",
        parts: [
          { kind: "toolCall", id: "c1", name: "get_weather", arguments: '{"city":"Paris"}' },
          { kind: "toolCall", id: "c2", name: "get_weather", arguments: '{"city":"Rome"}' },
        ],
      },
      {
        role: "tool",
        parts: [
          { kind: "toolResult", callId: "c1", content: [{ kind: "text", text: "18" }] },
          { kind: "toolResult", callId: "c2", content: [{ kind: "text", text: "21" }] },
        ],
      },
    ],
    tools: [],
    params: {},
    stream: false,
    source: "messages",
  };
  const gemini = codec.encodeRequest(request, "gemini-3-flash-preview");
  const calls = (gemini.body.messages as { tool_calls?: Record<string, unknown>[] }[])[1].tool_calls!;
  assertEquals(calls.map((c) => c.extra_content), [
    { google: { thought_signature: "skip_thought_signature_validator" } },
    undefined,
  ]);
  assertEquals(gemini.warnings.map((w) => [w.code, w.detail]), [["changed_part:signature", {
    tool: "get_weather",
  }]]);
  const other = codec.encodeRequest(request, "gemini-2.5-flash");
  const plain = (other.body.messages as { tool_calls?: Record<string, unknown>[] }[])[1].tool_calls!;
  assertEquals(plain.map((c) => c.extra_content), [undefined, undefined]);
});
