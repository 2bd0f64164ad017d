import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import type { NeutralRequest } from "../../../src/model/mod.ts";
import { chatCompletionsCodec } from "../../../src/wire/chat_completions/mod.ts";
import { TOOLS } from "./tools_fixture.ts";

const codec = chatCompletionsCodec;

function decode(body: unknown): NeutralRequest {
  return codec.decodeRequest(body, {});
}

function invalid(body: unknown, message: string): void {
  const error = assertThrows(() => decode(body), GatewayError, message);
  assertEquals(error.status, 400);
  assertEquals(error.kind, "invalid_request");
}

Deno.test("decodeRequest() maps system, developer, user, assistant and tool messages", () => {
  const request = decode({
    model: "openai/gpt-4o",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "developer", content: [{ type: "text", text: "Use metric units." }] },
      { role: "user", content: "Weather in Paris?", name: "ann" },
      {
        role: "assistant",
        content: null,
        reasoning_content: "Need the tool.",
        tool_calls: [{
          id: "call_1",
          type: "function",
          function: { name: "get_weather", arguments: '{"city":"Paris"}' },
        }],
      },
      { role: "tool", tool_call_id: "call_1", content: "18C, sunny" },
    ],
  });
  assertEquals(request.system.map((p) => p.text), ["Be brief.", "Use metric units."]);
  assertEquals(request.system[1].extra, { format: "chat_completions", fields: { role: "developer" } });
  assertEquals(request.messages, [
    { role: "user", parts: [{ kind: "text", text: "Weather in Paris?" }], name: "ann" },
    {
      role: "assistant",
      parts: [
        { kind: "reasoning", text: "Need the tool." },
        { kind: "toolCall", id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      ],
    },
    {
      role: "tool",
      parts: [{ kind: "toolResult", callId: "call_1", content: [{ kind: "text", text: "18C, sunny" }] }],
    },
  ]);
  assertEquals(request.source, "chat_completions");
  assertEquals(request.stream, false);
});

Deno.test("decodeRequest() reads OpenRouter-style `reasoning` on assistant messages", () => {
  const request = decode({
    model: "m",
    messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "yo", reasoning: "think" }],
  });
  assertEquals(request.messages[1].parts, [{ kind: "reasoning", text: "think" }, {
    kind: "text",
    text: "yo",
  }]);
  assertEquals(request.messages[1].extra, undefined);
});

Deno.test("decodeRequest() turns image URLs and data URLs into image parts and keeps detail", () => {
  const request = decode({
    model: "m",
    messages: [{
      role: "user",
      content: [
        { type: "text", text: "Compare" },
        { type: "image_url", image_url: { url: "https://x.test/a.png", detail: "high" } },
        { type: "image_url", image_url: { url: "data:image/jpeg;base64,QUJD" } },
      ],
    }],
  });
  assertEquals(request.messages[0].parts, [
    { kind: "text", text: "Compare" },
    { kind: "image", source: { type: "url", url: "https://x.test/a.png" }, detail: "high" },
    { kind: "image", source: { type: "base64", mediaType: "image/jpeg", data: "QUJD" } },
  ]);
});

Deno.test("decodeRequest() maps tools, tool_choice, stop, limits, sampling and reasoning_effort", () => {
  const request = decode({
    model: "m",
    messages: [{ role: "user", content: "hi" }],
    tools: TOOLS,
    tool_choice: { type: "function", function: { name: "get_weather" } },
    stop: "END",
    max_completion_tokens: 300,
    max_tokens: 100,
    temperature: 0.2,
    top_p: 0.9,
    seed: 7,
    presence_penalty: 0.1,
    frequency_penalty: 0.3,
    reasoning_effort: "high",
    stream: true,
  });
  assertEquals(request.tools, [{
    name: "get_weather",
    description: "Weather for a city",
    parameters: TOOLS[0].function.parameters,
    extra: { format: "chat_completions", fields: { function: { strict: true } } },
  }]);
  assertEquals(request.toolChoice, { type: "tool", name: "get_weather" });
  assertEquals(request.params, {
    maxTokens: 300,
    temperature: 0.2,
    topP: 0.9,
    stop: ["END"],
    seed: 7,
    presencePenalty: 0.1,
    frequencyPenalty: 0.3,
  });
  assertEquals(request.reasoning, { effort: "high" });
  assertEquals(request.stream, true);
  assertEquals(request.extra, undefined);
  for (const choice of ["auto", "none", "required"] as const) {
    assertEquals(
      decode({ model: "m", messages: [{ role: "user", content: "x" }], tool_choice: choice }).toolChoice,
      {
        type: choice,
      },
    );
  }
  assertEquals(
    decode({ model: "m", messages: [{ role: "user", content: "x" }], stop: ["a", "b"] }).params.stop,
    [
      "a",
      "b",
    ],
  );
});

Deno.test("decodeRequest() keeps unmapped top-level and message fields in extra", () => {
  const request = decode({
    model: "m",
    messages: [{ role: "user", content: "hi", custom_flag: 1 }],
    response_format: { type: "json_object" },
    metadata: { a: "b" },
    parallel_tool_calls: false,
    logprobs: true,
    user: "u-1",
    stream_options: { include_usage: false },
    n: 1,
  });
  assertEquals(request.extra, {
    format: "chat_completions",
    fields: {
      response_format: { type: "json_object" },
      metadata: { a: "b" },
      parallel_tool_calls: false,
      logprobs: true,
      user: "u-1",
      stream_options: { include_usage: false },
      n: 1,
    },
  });
  assertEquals(request.messages[0].extra, { format: "chat_completions", fields: { custom_flag: 1 } });
});

Deno.test("decodeRequest() rejects invalid bodies with the failing field path", () => {
  invalid("nope", "body: must be a JSON object");
  invalid({ model: "m" }, "messages: is required");
  invalid({ model: "m", messages: [] }, "messages: must contain at least one message");
  invalid({ messages: [{ role: "user", content: "x" }] }, "model: is required");
  invalid(
    { model: "m", messages: [{ role: "wizard", content: "x" }] },
    'messages[0].role: unknown role "wizard"',
  );
  invalid({ model: "m", messages: [{ role: "user", content: 5 }] }, "messages[0].content:");
  invalid({ model: "m", messages: [{ role: "user", content: "x" }], temperature: "hot" }, "temperature:");
  invalid(
    {
      model: "m",
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "x" },
        { role: "user", content: [{ type: "text", text: "a" }, { type: "audio_url", audio_url: "u" }] },
      ],
    },
    'messages[2].content[1].type: unknown content part type "audio_url"',
  );
  invalid(
    { model: "m", messages: [{ role: "user", content: [{ type: "text" }] }] },
    "messages[0].content[0].text:",
  );
  invalid(
    { model: "m", messages: [{ role: "tool", content: "x" }] },
    "messages[0].tool_call_id:",
  );
  invalid(
    { model: "m", messages: [{ role: "user", content: "x" }], tool_choice: "sometimes" },
    'tool_choice: unknown value "sometimes"',
  );
  invalid(
    { model: "m", messages: [{ role: "user", content: "x" }], tools: [{ type: "web_search" }] },
    'tools[0].type: unsupported tool type "web_search"',
  );
});
