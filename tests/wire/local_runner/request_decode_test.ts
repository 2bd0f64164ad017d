import { GatewayError } from "../../../src/model/mod.ts";
import { localRunnerCodec } from "../../../src/wire/local_runner/mod.ts";
import { syntheticToolId } from "../../../src/wire/shared/mod.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

const decode = (body: unknown, endpoint = "chat") => localRunnerCodec.decodeRequest(body, { endpoint });

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk";
const JPEG = "/9j/4AAQSkZJRgABAQEASABIAAD";
const GIF = "R0lGODlhAQABAIAAAAAAAP";
const WEBP = "UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA";

Deno.test("decodeRequest() maps a chat body: system lifted out, roles kept, stream defaults to true", () => {
  const request = decode({
    model: "local/llama3",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello!" },
      { role: "user", content: "Bye" },
    ],
  });
  assertEquals(request.model, "local/llama3");
  assertEquals(request.source, "local_runner");
  assertEquals(request.stream, true);
  assertEquals(request.system, [{ kind: "text", text: "Be brief." }]);
  assertEquals(request.messages, [
    { role: "user", parts: [{ kind: "text", text: "Hi" }] },
    { role: "assistant", parts: [{ kind: "text", text: "Hello!" }] },
    { role: "user", parts: [{ kind: "text", text: "Bye" }] },
  ]);
  assertEquals(request.tools, []);
  assertEquals(request.extra, undefined);
});

Deno.test("decodeRequest() honours stream: false", () => {
  assertEquals(decode({ model: "m", messages: [], stream: false }).stream, false);
  assertEquals(decode({ model: "m", prompt: "x", stream: false }, "generate").stream, false);
});

Deno.test("decodeRequest() turns base64 images into image parts with the media type read from magic bytes", () => {
  const request = decode({
    model: "m",
    messages: [{ role: "user", content: "What is this?", images: [PNG, JPEG, GIF, WEBP, "AAAA"] }],
  });
  const media = request.messages[0].parts.map((p) =>
    p.kind === "image" && p.source.type === "base64" ? p.source.mediaType : p.kind
  );
  assertEquals(media, ["image/png", "image/jpeg", "image/gif", "image/webp", "image/png", "text"]);
  const first = request.messages[0].parts[0];
  assertEquals(first, { kind: "image", source: { type: "base64", mediaType: "image/png", data: PNG } });
});

Deno.test("decodeRequest() strips a data: URL prefix some clients add to images", () => {
  const request = decode({
    model: "m",
    messages: [{ role: "user", content: "", images: [`data:image/jpeg;base64,${JPEG}`] }],
  });
  assertEquals(request.messages[0].parts, [
    { kind: "image", source: { type: "base64", mediaType: "image/jpeg", data: JPEG } },
  ]);
});

Deno.test("decodeRequest() gives tool calls deterministic ids, JSON-text arguments and pairs results by name", () => {
  const body = {
    model: "m",
    messages: [
      { role: "user", content: "Weather in Paris and Rome, and the time?" },
      {
        role: "assistant",
        content: "",
        thinking: "Two cities.",
        tool_calls: [
          { function: { name: "get_weather", arguments: { city: "Paris" } } },
          { function: { name: "get_time", arguments: {} } },
          { function: { name: "get_weather", arguments: { city: "Rome" } } },
        ],
      },
      { role: "tool", tool_name: "get_time", content: "12:00" },
      { role: "tool", tool_name: "get_weather", content: "sunny" },
      { role: "tool", tool_name: "get_weather", content: "rainy" },
    ],
  };
  const request = decode(body);
  const ids = [0, 1, 2].map((i) => syntheticToolId("m1", i, i === 1 ? "get_time" : "get_weather"));
  assertEquals(request.messages[1].parts, [
    { kind: "reasoning", text: "Two cities." },
    { kind: "toolCall", id: ids[0], name: "get_weather", arguments: '{"city":"Paris"}' },
    { kind: "toolCall", id: ids[1], name: "get_time", arguments: "{}" },
    { kind: "toolCall", id: ids[2], name: "get_weather", arguments: '{"city":"Rome"}' },
  ]);
  const results = request.messages.slice(2).map((m) => m.parts[0]);
  assertEquals(results, [
    { kind: "toolResult", callId: ids[1], name: "get_time", content: [{ kind: "text", text: "12:00" }] },
    { kind: "toolResult", callId: ids[0], name: "get_weather", content: [{ kind: "text", text: "sunny" }] },
    { kind: "toolResult", callId: ids[2], name: "get_weather", content: [{ kind: "text", text: "rainy" }] },
  ]);
  assertEquals(request.messages.slice(2).map((m) => m.role), ["tool", "tool", "tool"]);
  // Same body, same ids: prompt caches and pairing survive a re-decode.
  assertEquals(decode(body).messages, request.messages);
});

Deno.test("decodeRequest() pairs a result with the most recent turn's unanswered call of that name", () => {
  const request = decode({
    model: "m",
    messages: [
      { role: "assistant", content: "", tool_calls: [{ function: { name: "ls", arguments: {} } }] },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "ls", arguments: { path: "/" } } }],
      },
      { role: "tool", tool_name: "ls", content: "bin etc" },
      { role: "tool", content: "." },
    ],
  });
  const [first, second] = [syntheticToolId("m0", 0, "ls"), syntheticToolId("m1", 0, "ls")];
  assertEquals(request.messages[2].parts[0], {
    kind: "toolResult",
    callId: second,
    name: "ls",
    content: [{ kind: "text", text: "bin etc" }],
  });
  // No name: the oldest unanswered call of the latest turn that has one.
  assertEquals(request.messages[3].parts[0], {
    kind: "toolResult",
    callId: first,
    name: "ls",
    content: [{ kind: "text", text: "." }],
  });
});

Deno.test("decodeRequest() keeps explicit tool call ids and tool_call_id, and accepts JSON-text arguments", () => {
  const request = decode({
    model: "m",
    messages: [
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_a", function: { name: "f", arguments: '{"x":1}' } }],
      },
      { role: "tool", tool_call_id: "call_a", content: "ok" },
    ],
  });
  assertEquals(request.messages[0].parts[0], {
    kind: "toolCall",
    id: "call_a",
    name: "f",
    arguments: '{"x":1}',
  });
  assertEquals(request.messages[1].parts[0], {
    kind: "toolResult",
    callId: "call_a",
    name: "f",
    content: [{ kind: "text", text: "ok" }],
  });
});

Deno.test("decodeRequest() maps nested function tools", () => {
  const request = decode({
    model: "m",
    messages: [],
    tools: [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather by city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
      { type: "function", function: { name: "noop" } },
    ],
  });
  assertEquals(request.tools, [
    {
      name: "get_weather",
      description: "Weather by city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
    { name: "noop", parameters: { type: "object", properties: {} } },
  ]);
});

Deno.test("decodeRequest() maps think to a reasoning intent", () => {
  const think = (value: unknown) => decode({ model: "m", messages: [], think: value }).reasoning;
  assertEquals(think(undefined), undefined);
  assertEquals(think(true), { includeThoughts: true });
  assertEquals(think(false), { effort: "none", includeThoughts: false });
  assertEquals(think("low"), { effort: "low", includeThoughts: true });
  assertEquals(think("high"), { effort: "high", includeThoughts: true });
});

Deno.test("decodeRequest() maps known options to params and keeps the rest, format and keep_alive as extra", () => {
  const request = decode({
    model: "m",
    messages: [],
    format: "json",
    keep_alive: "5m",
    options: {
      num_predict: 256,
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      stop: "###",
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.3,
      num_ctx: 8192,
      mirostat: 2,
    },
  });
  assertEquals(request.params, {
    maxTokens: 256,
    temperature: 0.2,
    topP: 0.9,
    topK: 40,
    stop: ["###"],
    seed: 7,
    presencePenalty: 0.1,
    frequencyPenalty: 0.3,
  });
  assertEquals(request.extra, {
    format: "local_runner",
    fields: { format: "json", keep_alive: "5m", options: { num_ctx: 8192, mirostat: 2 } },
  });
});

Deno.test("decodeRequest() keeps num_predict -1 (unlimited) as a runner option, not a token cap", () => {
  const request = decode({ model: "m", messages: [], options: { num_predict: -1 } });
  assertEquals(request.params, {});
  assertEquals(request.extra?.fields, { options: { num_predict: -1 } });
});

Deno.test("decodeRequest() maps a generate body: prompt, system, images, generate-only fields as extra", () => {
  const request = decode({
    model: "local/llama3",
    prompt: "Describe",
    system: "You are a poet.",
    images: [JPEG],
    suffix: "END",
    raw: false,
    context: [1, 2, 3],
    think: "medium",
    options: { temperature: 1 },
  }, "generate");
  assertEquals(request.system, [{ kind: "text", text: "You are a poet." }]);
  assertEquals(request.messages, [{
    role: "user",
    parts: [
      { kind: "image", source: { type: "base64", mediaType: "image/jpeg", data: JPEG } },
      { kind: "text", text: "Describe" },
    ],
  }]);
  assertEquals(request.stream, true);
  assertEquals(request.params, { temperature: 1 });
  assertEquals(request.reasoning, { effort: "medium", includeThoughts: true });
  assertEquals(request.extra, {
    format: "local_runner",
    fields: { suffix: "END", raw: false, context: [1, 2, 3] },
  });
});

Deno.test("decodeRequest() rejects bad bodies with a 400 naming the field", () => {
  const cases: [unknown, string, string][] = [
    [{ messages: [] }, "chat", "model: is required"],
    [{ model: "" }, "chat", "model: must be a non-empty string"],
    [{ prompt: "x" }, "generate", "model: is required"],
    [
      { model: "m", messages: [{ role: "bot", content: "x" }] },
      "chat",
      'messages[0].role: must be one of "system", "user", "assistant", "tool", not "bot"',
    ],
    [
      { model: "m", messages: [{ role: "user", content: 3 }] },
      "chat",
      "messages[0].content: must be a string",
    ],
    [{ model: "m", messages: [], tools: [{ function: {} }] }, "chat", "tools[0].function.name: is required"],
    [
      { model: "m", messages: [], think: "max" },
      "chat",
      'think: must be true, false, "low", "medium" or "high", not "max"',
    ],
    [
      { model: "m", messages: [], options: { temperature: "hot" } },
      "chat",
      "options.temperature: expected a number",
    ],
    [[1, 2], "chat", "body: must be a JSON object"],
  ];
  for (const [body, endpoint, message] of cases) {
    const error = assertThrows(() => decode(body, endpoint), GatewayError, message);
    assertEquals([error.status, error.kind], [400, "invalid_request"]);
  }
});
