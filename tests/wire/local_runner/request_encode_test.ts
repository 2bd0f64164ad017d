import type { NeutralRequest } from "../../../src/model/mod.ts";
import { localRunnerCodec } from "../../../src/wire/local_runner/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";

const JPEG = "/9j/4AAQSkZJRgABAQEASABIAAD";

function request(overrides: Partial<NeutralRequest>): NeutralRequest {
  return {
    model: "x/y",
    system: [],
    messages: [],
    tools: [],
    params: {},
    stream: true,
    source: "messages",
    ...overrides,
  };
}

Deno.test("encodeRequest() round-trips an Ollama chat body through the neutral model", () => {
  const body = {
    model: "local/qwen3",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather?", images: [JPEG] },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris", days: 2 } } }],
      },
      { role: "tool", tool_name: "get_weather", content: "sunny" },
    ],
    tools: [{
      type: "function",
      function: { name: "get_weather", description: "d", parameters: { type: "object" } },
    }],
    stream: false,
    options: { temperature: 0.5, num_ctx: 4096 },
    think: "high",
    format: "json",
    keep_alive: -1,
  };
  const neutral = localRunnerCodec.decodeRequest(body, { endpoint: "chat" });
  const { body: encoded, warnings } = localRunnerCodec.encodeRequest(neutral, "qwen3:8b");
  const callId = (neutral.messages[1].parts[0] as { id: string }).id;
  assertEquals(warnings, []);
  assertEquals(encoded, {
    model: "qwen3:8b",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather?", images: [JPEG] },
      {
        role: "assistant",
        content: "",
        tool_calls: [{
          id: callId,
          function: { name: "get_weather", arguments: { city: "Paris", days: 2 } },
        }],
      },
      { role: "tool", content: "sunny", tool_name: "get_weather", tool_call_id: callId },
    ],
    tools: [{
      type: "function",
      function: { name: "get_weather", description: "d", parameters: { type: "object" } },
    }],
    stream: false,
    options: { num_ctx: 4096, temperature: 0.5 },
    think: "high",
    format: "json",
    keep_alive: -1,
  });
});

Deno.test("encodeRequest() sends a generate request as a chat body and warns about generate-only fields", () => {
  const neutral = localRunnerCodec.decodeRequest(
    { model: "m", prompt: "Hi", system: "S", suffix: "END", keep_alive: "1m" },
    { endpoint: "generate" },
  );
  const { body, warnings } = localRunnerCodec.encodeRequest(neutral, "llama3");
  assertEquals(body, {
    model: "llama3",
    messages: [{ role: "system", content: "S" }, { role: "user", content: "Hi" }],
    stream: true,
    keep_alive: "1m",
  });
  assertEquals(warnings, [{
    code: "dropped_field:suffix",
    message: "suffix: dropped (the chat endpoint has no such field)",
    detail: { field: "suffix" },
  }]);
});

Deno.test("encodeRequest() turns JSON-text arguments into objects and tolerates malformed ones", () => {
  const { body } = localRunnerCodec.encodeRequest(
    request({
      messages: [{
        role: "assistant",
        parts: [
          { kind: "toolCall", id: "toolu_1", name: "f", arguments: '{"a":[1,2]}' },
          { kind: "toolCall", id: "toolu_2", name: "g", arguments: "{not json" },
        ],
      }],
    }),
    "m",
  );
  assertEquals(body.messages, [{
    role: "assistant",
    content: "",
    tool_calls: [
      { id: "toolu_1", function: { name: "f", arguments: { a: [1, 2] } } },
      { id: "toolu_2", function: { name: "g", arguments: {} } },
    ],
  }]);
});

Deno.test("encodeRequest() drops URL images with a warning, never sends empty tools, ignores foreign extra", () => {
  const { body, warnings } = localRunnerCodec.encodeRequest(
    request({
      messages: [{
        role: "user",
        parts: [
          { kind: "text", text: "Look" },
          { kind: "image", source: { type: "url", url: "https://example.com/a.png" } },
        ],
      }],
      extra: { format: "chat_completions", fields: { user: "u1" } },
    }),
    "m",
  );
  assertEquals(body, { model: "m", messages: [{ role: "user", content: "Look" }], stream: true });
  assertEquals(warnings.map((w) => [w.code, w.message]), [[
    "dropped_part:image",
    "messages[0]: image by URL dropped (the local runner accepts base64 images only)",
  ]]);
});

Deno.test("encodeRequest() keeps only the current turn's unsigned thinking", () => {
  const { body } = localRunnerCodec.encodeRequest(
    request({
      messages: [
        { role: "user", parts: [{ kind: "text", text: "q1" }] },
        {
          role: "assistant",
          parts: [{ kind: "reasoning", text: "old thoughts", signature: "sig", family: "anthropic" }, {
            kind: "text",
            text: "a1",
          }],
        },
        { role: "user", parts: [{ kind: "text", text: "q2" }] },
        {
          role: "assistant",
          parts: [
            { kind: "reasoning", text: "", redactedData: "opaque" },
            { kind: "reasoning", text: "use the tool" },
            { kind: "toolCall", id: "c1", name: "f", arguments: "{}" },
          ],
        },
        {
          role: "tool",
          parts: [{ kind: "toolResult", callId: "c1", content: [{ kind: "text", text: "r" }] }],
        },
      ],
    }),
    "m",
  );
  assertEquals(body.messages, [
    { role: "user", content: "q1" },
    { role: "assistant", content: "a1" },
    { role: "user", content: "q2" },
    {
      role: "assistant",
      content: "",
      thinking: "use the tool",
      tool_calls: [{ id: "c1", function: { name: "f", arguments: {} } }],
    },
    { role: "tool", content: "r", tool_name: "f", tool_call_id: "c1" },
  ]);
});

Deno.test("encodeRequest() maps params, reasoning intents and tool choice", () => {
  const tools = [{ name: "f", parameters: { type: "object" } }];
  const encode = (overrides: Partial<NeutralRequest>) =>
    localRunnerCodec.encodeRequest(request(overrides), "m");
  assertEquals(
    encode({
      params: { maxTokens: 10, topK: 5, stop: ["x"], seed: 1, presencePenalty: 0, frequencyPenalty: 1 },
    })
      .body.options,
    { num_predict: 10, top_k: 5, seed: 1, presence_penalty: 0, frequency_penalty: 1, stop: ["x"] },
  );
  assertEquals(encode({ reasoning: { effort: "xhigh" } }).body.think, "high");
  assertEquals(encode({ reasoning: { effort: "minimal" } }).body.think, "low");
  assertEquals(encode({ reasoning: { effort: "none" } }).body.think, false);
  assertEquals(encode({ reasoning: { budgetTokens: 8000 } }).body.think, "medium");
  assertEquals(encode({ reasoning: { includeThoughts: true } }).body.think, true);
  assertEquals(encode({ tools, toolChoice: { type: "none" } }).body.tools, undefined);
  const forced = encode({ tools, toolChoice: { type: "tool", name: "f" } });
  assertEquals(forced.body.tools, [{
    type: "function",
    function: { name: "f", parameters: { type: "object" } },
  }]);
  assertEquals(forced.warnings.map((w) => [w.code, w.message]), [[
    "dropped_field:tool_choice",
    'toolChoice: "tool" cannot be expressed by the local runner; the model decides',
  ]]);
});
