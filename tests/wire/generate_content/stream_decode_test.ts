import { assertEquals } from "../../helpers/assert.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import { generateContentCodec as codec } from "../../../src/wire/generate_content/mod.ts";
import { syntheticToolId } from "../../../src/wire/shared/mod.ts";
import { collect, framesOf, pipeAll, sseText } from "./stream_helpers.ts";

const chunks = [
  {
    candidates: [{ content: { role: "model", parts: [{ text: "Plan: ", thought: true }] }, index: 0 }],
    usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
    modelVersion: "gemini-2.5-flash",
    responseId: "rid-9",
  },
  {
    candidates: [{
      content: {
        role: "model",
        parts: [{ text: "check weather", thought: true, thoughtSignature: "th-sig" }],
      },
      index: 0,
    }],
    modelVersion: "gemini-2.5-flash",
    responseId: "rid-9",
  },
  {
    candidates: [{ content: { role: "model", parts: [{ text: "Sure, " }] }, index: 0 }],
    modelVersion: "gemini-2.5-flash",
    responseId: "rid-9",
  },
  {
    candidates: [{ content: { role: "model", parts: [{ text: "checking." }] }, index: 0 }],
    modelVersion: "gemini-2.5-flash",
    responseId: "rid-9",
  },
  {
    candidates: [{
      content: {
        role: "model",
        parts: [{ functionCall: { name: "weather", args: { city: "Oslo" } }, thoughtSignature: "fc-sig" }],
      },
      finishReason: "STOP",
      index: 0,
    }],
    usageMetadata: {
      promptTokenCount: 12,
      candidatesTokenCount: 9,
      thoughtsTokenCount: 20,
      cachedContentTokenCount: 4,
      totalTokenCount: 41,
    },
    modelVersion: "gemini-2.5-flash",
    responseId: "rid-9",
  },
];

async function decode(text: string): Promise<StreamEvent[]> {
  return pipeAll(await framesOf(text), codec.decodeStream());
}

Deno.test("decodeStream() synthesises reasoning, text and tool-call blocks from Gemini chunks", async () => {
  const events = await decode(sseText(chunks));
  const id = syntheticToolId("rid-9", 0, "weather");
  const usage = { inputTotal: 12, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  assertEquals(events, [
    { type: "start", id: "rid-9", model: "gemini-2.5-flash" },
    // A chunk's usage comes before its parts, so a client naming input at its start gets it.
    { type: "usage", usage },
    { type: "blockStart", index: 0, kind: "reasoning", family: "google" },
    { type: "textDelta", index: 0, text: "Plan: " },
    { type: "textDelta", index: 0, text: "check weather" },
    { type: "signatureDelta", index: 0, signature: "th-sig" },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "text" },
    { type: "textDelta", index: 1, text: "Sure, " },
    { type: "textDelta", index: 1, text: "checking." },
    { type: "usage", usage: { inputTotal: 12, cacheRead: 4, cacheWrite: 0, output: 29, reasoning: 20 } },
    { type: "blockEnd", index: 1 },
    { type: "blockStart", index: 2, kind: "toolCall", id, name: "weather", family: "google" },
    { type: "signatureDelta", index: 2, signature: "fc-sig" },
    { type: "argumentsDelta", index: 2, json: '{"city":"Oslo"}' },
    { type: "blockEnd", index: 2 },
    { type: "finish", finish: { unified: "tool_calls", raw: "STOP" } },
  ]);
});

Deno.test("decodeStream() collects to the same response as decodeResponse() of the joined answer", async () => {
  const streamed = collect(await decode(sseText(chunks)));
  const whole = codec.decodeResponse({
    candidates: [{
      content: {
        role: "model",
        parts: [
          { text: "Plan: check weather", thought: true, thoughtSignature: "th-sig" },
          { text: "Sure, checking." },
          { functionCall: { name: "weather", args: { city: "Oslo" } }, thoughtSignature: "fc-sig" },
        ],
      },
      finishReason: "STOP",
    }],
    usageMetadata: chunks[4].usageMetadata,
    modelVersion: "gemini-2.5-flash",
    responseId: "rid-9",
  });
  assertEquals(streamed, whole);
});

Deno.test("decodeStream() tolerates [DONE] and ends a stream that has no finishReason", async () => {
  const text = sseText([{ candidates: [{ content: { parts: [{ text: "hi" }] } }] }]) + "data: [DONE]\n\n";
  assertEquals(await decode(text), [
    { type: "start", id: "", model: "" },
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "hi" },
    { type: "blockEnd", index: 0 },
    { type: "finish", finish: { unified: "stop", raw: null } },
  ]);
});

Deno.test("decodeStream() turns an error chunk into an error event and stops", async () => {
  const text = sseText([
    { candidates: [{ content: { parts: [{ text: "par" }] } }] },
    { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } },
    { candidates: [{ content: { parts: [{ text: "ignored" }] } }] },
  ]);
  const events = await decode(text);
  assertEquals(events.slice(3), [
    { type: "blockEnd", index: 0 },
    {
      type: "error",
      status: 503,
      message: "Gemini upstream error 503 UNAVAILABLE: The model is overloaded.",
      kind: "upstream",
    },
  ]);
});

Deno.test("decodeStream() maps a blocked prompt to a content_filter finish", async () => {
  const events = await decode(sseText([{ promptFeedback: { blockReason: "SAFETY" } }]));
  assertEquals(events, [
    { type: "start", id: "", model: "" },
    { type: "finish", finish: { unified: "content_filter", raw: "SAFETY" } },
  ]);
});

Deno.test("decodeStream() puts an end-of-turn signature on an empty text part into the text block", async () => {
  const events = await decode(sseText([
    { candidates: [{ content: { parts: [{ text: "done" }] } }] },
    {
      candidates: [{ content: { parts: [{ text: "", thoughtSignature: "end-sig" }] }, finishReason: "STOP" }],
    },
  ]));
  assertEquals(events.slice(1), [
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "done" },
    { type: "signatureDelta", index: 0, signature: "end-sig" },
    { type: "blockEnd", index: 0 },
    { type: "finish", finish: { unified: "stop", raw: "STOP" } },
  ]);
});
