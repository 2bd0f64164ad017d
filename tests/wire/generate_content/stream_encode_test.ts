import { assertEquals } from "../../helpers/assert.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import { generateContentCodec as codec } from "../../../src/wire/generate_content/mod.ts";
import { collect, framesOf, pipeAll } from "./stream_helpers.ts";

const ctx = { requestModel: "gem/gemini-2.5-flash", now: 1_700_000_000 };

const events: StreamEvent[] = [
  { type: "start", id: "msg_1", model: "claude-x" },
  { type: "blockStart", index: 0, kind: "reasoning", family: "google" },
  { type: "textDelta", index: 0, text: "think" },
  { type: "signatureDelta", index: 0, signature: "g-sig" },
  { type: "blockEnd", index: 0 },
  { type: "blockStart", index: 1, kind: "text" },
  { type: "textDelta", index: 1, text: "Hi" },
  { type: "blockEnd", index: 1 },
  { type: "blockStart", index: 2, kind: "toolCall", id: "call_1", name: "f" },
  { type: "argumentsDelta", index: 2, json: '{"a":' },
  { type: "argumentsDelta", index: 2, json: "1}" },
  { type: "blockEnd", index: 2 },
  { type: "finish", finish: { unified: "tool_calls", raw: "tool_use" } },
  { type: "usage", usage: { inputTotal: 10, cacheRead: 2, cacheWrite: 0, output: 8, reasoning: 3 } },
];

Deno.test("encodeStream() writes golden Gemini SSE bytes: data lines only, final chunk with finish and usage", async () => {
  const text = (await pipeAll(events, codec.encodeStream(ctx))).join("");
  const tail = ',"index":0}],"modelVersion":"gem/gemini-2.5-flash","responseId":"msg_1"}\n\n';
  assertEquals(
    text,
    'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"think","thought":true}]}' + tail +
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"","thought":true,"thoughtSignature":"g-sig"}]}' +
      tail +
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}' + tail +
      'data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"call_1","name":"f","args":{"a":1}}}]}' +
      tail +
      'data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP","index":0}],' +
      '"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":18,' +
      '"cachedContentTokenCount":2,"thoughtsTokenCount":3},"modelVersion":"gem/gemini-2.5-flash","responseId":"msg_1"}\n\n',
  );
});

Deno.test("encodeStream() does not leak another family's reasoning signature", async () => {
  const text = (await pipeAll<StreamEvent, string>([
    { type: "start", id: "", model: "" },
    { type: "blockStart", index: 0, kind: "reasoning", family: "anthropic" },
    { type: "textDelta", index: 0, text: "t" },
    { type: "signatureDelta", index: 0, signature: "anthropic-sig" },
    { type: "blockEnd", index: 0 },
  ], codec.encodeStream(ctx))).join("");
  assertEquals(text.includes("anthropic-sig"), false);
  assertEquals(text.includes('"thought":true'), true);
});

Deno.test("encodeStream() writes an error event as a Gemini error chunk and nothing after it", async () => {
  const text = (await pipeAll<StreamEvent, string>([
    { type: "start", id: "", model: "" },
    { type: "error", status: 429, message: "slow down", kind: "rate_limit" },
    { type: "finish", finish: { unified: "stop", raw: null } },
  ], codec.encodeStream(ctx))).join("");
  assertEquals(text, 'data: {"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}\n\n');
});

Deno.test("encodeStream() then decodeStream() collects to the response the events describe", async () => {
  const googleEvents: StreamEvent[] = events.map((event) =>
    event.type === "blockStart" && event.kind === "toolCall" ? { ...event, family: "google" } : event
  );
  const text = (await pipeAll(googleEvents, codec.encodeStream(ctx))).join("");
  const decoded = await pipeAll(await framesOf(text), codec.decodeStream());
  const expected = collect(googleEvents);
  assertEquals(collect(decoded), {
    ...expected,
    model: "gem/gemini-2.5-flash",
    finish: { unified: "tool_calls", raw: "STOP" },
  });
});

Deno.test("encodeStream() always ends with a finish chunk, even for an empty stream", async () => {
  const text = (await pipeAll<StreamEvent, string>([], codec.encodeStream(ctx))).join("");
  assertEquals(
    text,
    'data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP","index":0}],' +
      '"usageMetadata":{"promptTokenCount":0,"candidatesTokenCount":0,"totalTokenCount":0},' +
      '"modelVersion":"gem/gemini-2.5-flash"}\n\n',
  );
});
