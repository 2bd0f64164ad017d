import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError, type NeutralResponse } from "../../../src/model/mod.ts";
import { generateContentCodec as codec } from "../../../src/wire/generate_content/mod.ts";
import { syntheticToolId } from "../../../src/wire/shared/mod.ts";

const encodeCtx = { requestModel: "gem/gemini-2.5-pro", now: 1_700_000_000 };

const geminiAnswer = {
  candidates: [{
    content: {
      role: "model",
      parts: [
        { text: "Let me think", thought: true },
        { text: "Calling the tool." },
        { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "sig-A" },
      ],
    },
    finishReason: "STOP",
    index: 0,
    safetyRatings: [{ category: "HARM_CATEGORY_HARASSMENT", probability: "NEGLIGIBLE" }],
  }],
  usageMetadata: {
    promptTokenCount: 100,
    candidatesTokenCount: 20,
    totalTokenCount: 150,
    cachedContentTokenCount: 40,
    thoughtsTokenCount: 30,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: 100 }],
  },
  modelVersion: "gemini-2.5-pro",
  responseId: "resp-1",
};

Deno.test("decodeResponse() maps parts, finish, usage and a synthesised tool id", () => {
  const response = codec.decodeResponse(geminiAnswer);
  assertEquals(response.id, "resp-1");
  assertEquals(response.model, "gemini-2.5-pro");
  assertEquals(response.parts, [
    { kind: "reasoning", text: "Let me think", family: "google" },
    { kind: "text", text: "Calling the tool." },
    {
      kind: "toolCall",
      id: syntheticToolId("resp-1", 0, "get_weather"),
      name: "get_weather",
      arguments: '{"city":"Paris"}',
      family: "google",
      signature: "sig-A",
    },
  ]);
  assertEquals(response.finish, { unified: "tool_calls", raw: "STOP" });
  assertEquals(response.usage, { inputTotal: 100, cacheRead: 40, cacheWrite: 0, output: 50, reasoning: 30 });
});

Deno.test("decodeResponse() adds tool-use prompt tokens to the input total", () => {
  const response = codec.decodeResponse({
    candidates: [{ content: { parts: [{ text: "x" }] }, finishReason: "STOP" }],
    usageMetadata: { promptTokenCount: 10, toolUsePromptTokenCount: 5, candidatesTokenCount: 2 },
  });
  assertEquals(response.usage, { inputTotal: 15, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 });
});

Deno.test("decodeResponse() maps every finish reason family and keeps the raw value", () => {
  const finish = (finishReason: string) =>
    codec.decodeResponse({ candidates: [{ content: { parts: [{ text: "x" }] }, finishReason }] }).finish;
  assertEquals(finish("STOP"), { unified: "stop", raw: "STOP" });
  assertEquals(finish("MAX_TOKENS"), { unified: "length", raw: "MAX_TOKENS" });
  for (const reason of ["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII"]) {
    assertEquals(finish(reason), { unified: "content_filter", raw: reason });
  }
  assertEquals(finish("MALFORMED_FUNCTION_CALL"), { unified: "error", raw: "MALFORMED_FUNCTION_CALL" });
  assertEquals(finish("LANGUAGE"), { unified: "other", raw: "LANGUAGE" });
});

Deno.test("decodeResponse() turns a blocked prompt into a content_filter finish with no parts", () => {
  const response = codec.decodeResponse({
    promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
    usageMetadata: { promptTokenCount: 7 },
  });
  assertEquals(response.parts, []);
  assertEquals(response.finish, { unified: "content_filter", raw: "PROHIBITED_CONTENT" });
  assertEquals(response.usage.inputTotal, 7);
});

Deno.test("decodeResponse() turns an error body into a 502 upstream GatewayError", () => {
  const error = assertThrows(
    () =>
      codec.decodeResponse({ error: { code: 429, message: "Quota exceeded", status: "RESOURCE_EXHAUSTED" } }),
    GatewayError,
    "Quota exceeded",
  );
  assertEquals(error.status, 502);
  assertEquals(error.kind, "upstream");
  assertThrows(() => codec.decodeResponse({ candidates: "no" }), GatewayError, "candidates");
});

Deno.test("encodeResponse() maps usage (thoughts outside candidates) and finish", () => {
  const response: NeutralResponse = {
    id: "r1",
    model: "claude-x",
    parts: [
      { kind: "reasoning", text: "pondering", signature: "anthropic-sig", family: "anthropic" },
      { kind: "text", text: "Hello" },
      { kind: "toolCall", id: "toolu_1", name: "f", arguments: '{"a":1}' },
    ],
    finish: { unified: "tool_calls", raw: "tool_use" },
    usage: { inputTotal: 100, cacheRead: 60, cacheWrite: 10, output: 50, reasoning: 30 },
  };
  assertEquals(codec.encodeResponse(response, encodeCtx), {
    candidates: [{
      content: {
        role: "model",
        parts: [
          { text: "pondering", thought: true },
          { text: "Hello" },
          { functionCall: { id: "toolu_1", name: "f", args: { a: 1 } } },
        ],
      },
      finishReason: "STOP",
      index: 0,
    }],
    usageMetadata: {
      promptTokenCount: 100,
      candidatesTokenCount: 20,
      totalTokenCount: 150,
      cachedContentTokenCount: 60,
      thoughtsTokenCount: 30,
    },
    modelVersion: "gem/gemini-2.5-pro",
    responseId: "r1",
  });
});

Deno.test("encodeResponse() maps neutral finishes and keeps Gemini raw values", () => {
  const finishOf = (unified: NeutralResponse["finish"]["unified"], raw: string | null) => {
    const body = codec.encodeResponse(
      {
        id: "",
        model: "",
        parts: [],
        finish: { unified, raw },
        usage: { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
      },
      encodeCtx,
    ) as { candidates: { finishReason: string }[] };
    return body.candidates[0].finishReason;
  };
  assertEquals(finishOf("stop", "end_turn"), "STOP");
  assertEquals(finishOf("tool_calls", "tool_calls"), "STOP");
  assertEquals(finishOf("length", "max_tokens"), "MAX_TOKENS");
  assertEquals(finishOf("content_filter", "content_filter"), "SAFETY");
  assertEquals(finishOf("error", null), "OTHER");
  assertEquals(finishOf("other", "pause_turn"), "OTHER");
  assertEquals(finishOf("content_filter", "RECITATION"), "RECITATION");
});

Deno.test("decodeResponse() then encodeResponse() keeps signatures and unknown fields", () => {
  const body = codec.encodeResponse(codec.decodeResponse(geminiAnswer), encodeCtx);
  const id = syntheticToolId("resp-1", 0, "get_weather");
  assertEquals(body, {
    ...geminiAnswer,
    candidates: [{
      ...geminiAnswer.candidates[0],
      content: {
        role: "model",
        parts: [
          { text: "Let me think", thought: true },
          { text: "Calling the tool." },
          { functionCall: { id, name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "sig-A" },
        ],
      },
    }],
    modelVersion: "gem/gemini-2.5-pro",
  });
});
