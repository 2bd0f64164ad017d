import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError } from "../../../src/model/mod.ts";
import { generateContentCodec as codec } from "../../../src/wire/generate_content/mod.ts";
import { syntheticToolId } from "../../../src/wire/shared/mod.ts";

const ctx = { pathModel: "gem/gemini-2.5-pro", pathStream: false };

Deno.test("decodeRequest() takes the model and stream flag from the URL", () => {
  const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
  const request = codec.decodeRequest(body, { pathModel: "gem/gemini-2.5-pro", pathStream: true });
  assertEquals(request.model, "gem/gemini-2.5-pro");
  assertEquals(request.stream, true);
  assertEquals(request.source, "generate_content");
  assertEquals(request.messages, [{ role: "user", parts: [{ kind: "text", text: "hi" }] }]);
});

Deno.test("decodeRequest() prefixes a bare model name with gemini/", () => {
  const request = codec.decodeRequest({ contents: [] }, { pathModel: "gemini-2.5-flash" });
  assertEquals(request.model, "gemini/gemini-2.5-flash");
  assertEquals(request.stream, false);
});

Deno.test("decodeRequest() maps roles, images, system and generation params", () => {
  const request = codec.decodeRequest({
    systemInstruction: { parts: [{ text: "be brief" }] },
    contents: [
      {
        role: "user",
        parts: [
          { text: "look" },
          { inlineData: { mimeType: "image/png", data: "AAAA" } },
          { fileData: { fileUri: "https://x/cat.jpg" } },
        ],
      },
      { role: "model", parts: [{ text: "a cat" }] },
    ],
    generationConfig: {
      maxOutputTokens: 100,
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      stopSequences: ["END"],
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    },
  }, ctx);
  assertEquals(request.system, [{ kind: "text", text: "be brief" }]);
  assertEquals(request.messages, [
    {
      role: "user",
      parts: [
        { kind: "text", text: "look" },
        { kind: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
        { kind: "image", source: { type: "url", url: "https://x/cat.jpg" } },
      ],
    },
    { role: "assistant", parts: [{ kind: "text", text: "a cat" }] },
  ]);
  assertEquals(request.params, {
    maxTokens: 100,
    temperature: 0.5,
    topP: 0.9,
    topK: 40,
    stop: ["END"],
    seed: 7,
    presencePenalty: 0.1,
    frequencyPenalty: 0.2,
  });
  assertEquals(request.reasoning, { budgetTokens: 2048, includeThoughts: true });
  assertEquals(request.extra, undefined);
});

Deno.test("decodeRequest() accepts snake_case field names", () => {
  const request = codec.decodeRequest({
    system_instruction: { parts: [{ text: "sys" }] },
    contents: [{ role: "user", parts: [{ inline_data: { mime_type: "image/gif", data: "R0" } }] }],
    generation_config: { max_output_tokens: 5, thinking_config: { thinking_level: "LOW" } },
    tool_config: { function_calling_config: { mode: "NONE" } },
  }, ctx);
  assertEquals(request.system, [{ kind: "text", text: "sys" }]);
  assertEquals(request.messages[0].parts, [{
    kind: "image",
    source: { type: "base64", mediaType: "image/gif", data: "R0" },
  }]);
  assertEquals(request.params, { maxTokens: 5 });
  assertEquals(request.reasoning, { effort: "low" });
  assertEquals(request.toolChoice, { type: "none" });
});

Deno.test("decodeRequest() pairs functionCall and functionResponse without ids by name, in order", () => {
  const request = codec.decodeRequest({
    contents: [
      { role: "user", parts: [{ text: "weather in two cities" }] },
      {
        role: "model",
        parts: [
          { functionCall: { name: "weather", args: { city: "Paris" } }, thoughtSignature: "sig-1" },
          { functionCall: { name: "weather", args: { city: "Oslo" } } },
          { functionCall: { name: "time", args: {}, id: "t-1" } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "time", response: { now: "noon" } } },
          { functionResponse: { name: "weather", response: { temp: 20 } } },
          { functionResponse: { name: "weather", response: { temp: 5 } } },
          { text: "and now?" },
        ],
      },
    ],
  }, ctx);
  const paris = syntheticToolId("contents[1]", 0, "weather");
  const oslo = syntheticToolId("contents[1]", 1, "weather");
  assertEquals(request.messages[1], {
    role: "assistant",
    parts: [
      {
        kind: "toolCall",
        id: paris,
        name: "weather",
        arguments: '{"city":"Paris"}',
        family: "google",
        signature: "sig-1",
      },
      { kind: "toolCall", id: oslo, name: "weather", arguments: '{"city":"Oslo"}', family: "google" },
      { kind: "toolCall", id: "t-1", name: "time", arguments: "{}", family: "google" },
    ],
  });
  assertEquals(request.messages[2], {
    role: "tool",
    parts: [
      {
        kind: "toolResult",
        callId: "t-1",
        name: "time",
        content: [{ kind: "text", text: '{"now":"noon"}' }],
      },
      {
        kind: "toolResult",
        callId: paris,
        name: "weather",
        content: [{ kind: "text", text: '{"temp":20}' }],
      },
      { kind: "toolResult", callId: oslo, name: "weather", content: [{ kind: "text", text: '{"temp":5}' }] },
    ],
  });
  assertEquals(request.messages[3], { role: "user", parts: [{ kind: "text", text: "and now?" }] });
});

Deno.test("decodeRequest() maps thought parts to google reasoning and keeps text signatures in extra", () => {
  const request = codec.decodeRequest({
    contents: [
      { role: "user", parts: [{ text: "q" }] },
      {
        role: "model",
        parts: [{ text: "thinking…", thought: true, thoughtSignature: "ts" }, {
          text: "answer",
          thoughtSignature: "t2",
        }],
      },
    ],
  }, ctx);
  assertEquals(request.messages[1].parts, [
    { kind: "reasoning", text: "thinking…", family: "google", signature: "ts" },
    {
      kind: "text",
      text: "answer",
      extra: { format: "generate_content", fields: { thoughtSignature: "t2" } },
    },
  ]);
});

Deno.test("decodeRequest() maps tools and tool config and keeps Gemini-only fields in extra", () => {
  const request = codec.decodeRequest({
    contents: [{ parts: [{ text: "x" }] }],
    tools: [
      {
        functionDeclarations: [
          {
            name: "search",
            description: "Search",
            parameters: { type: "OBJECT", properties: { q: { type: "STRING" } }, required: ["q"] },
          },
          {
            name: "read",
            parametersJsonSchema: { type: "object", additionalProperties: false },
            behavior: "BLOCKING",
          },
        ],
      },
      { googleSearch: {} },
    ],
    toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["search"] } },
    safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
    cachedContent: "cachedContents/abc",
    generationConfig: { responseMimeType: "application/json", candidateCount: 1, temperature: 1 },
  }, ctx);
  assertEquals(request.tools, [
    {
      name: "search",
      description: "Search",
      parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    },
    {
      name: "read",
      parameters: { type: "object", additionalProperties: false },
      extra: { format: "generate_content", fields: { behavior: "BLOCKING" } },
    },
  ]);
  assertEquals(request.toolChoice, { type: "tool", name: "search" });
  assertEquals(request.params, { temperature: 1 });
  assertEquals(request.extra, {
    format: "generate_content",
    fields: {
      safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
      cachedContent: "cachedContents/abc",
      generationConfig: { responseMimeType: "application/json", candidateCount: 1 },
      tools: [{ googleSearch: {} }],
    },
  });
});

Deno.test("decodeRequest() maps function calling modes", () => {
  const choice = (functionCallingConfig: unknown) =>
    codec.decodeRequest({ contents: [], toolConfig: { functionCallingConfig } }, ctx).toolChoice;
  assertEquals(choice({ mode: "AUTO" }), { type: "auto" });
  assertEquals(choice({ mode: "NONE" }), { type: "none" });
  assertEquals(choice({ mode: "ANY" }), { type: "required" });
  const several = codec.decodeRequest({
    contents: [],
    toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a", "b"] } },
  }, ctx);
  assertEquals(several.toolChoice, { type: "required" });
  assertEquals(several.extra?.fields, {
    toolConfig: { functionCallingConfig: { allowedFunctionNames: ["a", "b"] } },
  });
});

Deno.test("decodeRequest() maps thinking budget 0 to effort none and keeps the dynamic budget in extra", () => {
  const off = codec.decodeRequest({
    contents: [],
    generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
  }, ctx);
  assertEquals(off.reasoning, { effort: "none", budgetTokens: 0 });
  const dynamic = codec.decodeRequest({
    contents: [],
    generationConfig: { thinkingConfig: { thinkingBudget: -1, includeThoughts: true } },
  }, ctx);
  assertEquals(dynamic.reasoning, { includeThoughts: true });
  assertEquals(dynamic.extra?.fields, { generationConfig: { thinkingConfig: { thinkingBudget: -1 } } });
});

Deno.test("decodeRequest() names the path of an unknown part", () => {
  const error = assertThrows(
    () =>
      codec.decodeRequest({
        contents: [{ role: "user", parts: [{ text: "a" }] }, { role: "model", parts: [{ bogus: 1 }] }],
      }, ctx),
    GatewayError,
    "contents[1].parts[0]: part has no known field",
  );
  assertEquals(error.status, 400);
  assertEquals(error.kind, "invalid_request");
});

Deno.test("decodeRequest() rejects badly typed fields and unknown roles with their path", () => {
  assertThrows(
    () => codec.decodeRequest({ contents: [{ role: "user", parts: [{ text: 5 }] }] }, ctx),
    GatewayError,
    "contents[0].parts[0].text",
  );
  assertThrows(
    () => codec.decodeRequest({ contents: [{ role: "system", parts: [{ text: "x" }] }] }, ctx),
    GatewayError,
    'contents[0].role: unknown role "system"',
  );
  assertThrows(() => codec.decodeRequest({}, ctx), GatewayError, "contents: is required");
  assertThrows(() => codec.decodeRequest("nope", ctx), GatewayError, "body");
  assertThrows(() => codec.decodeRequest({ contents: [] }, {}), GatewayError, "model: is required");
});
