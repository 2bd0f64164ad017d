import { assert, assertEquals } from "../../helpers/assert.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import { encodeStream } from "../../../src/wire/responses/mod.ts";
import { payloadsOf, run } from "./helpers.ts";
import { sdkStream } from "./sdk.ts";

const CTX = { requestModel: "oa/gpt-5", now: 1_700_000_000 };
const USAGE = { inputTotal: 5, cacheRead: 0, cacheWrite: 0, output: 1, reasoning: 0 };

async function encode(events: readonly StreamEvent[]): Promise<string> {
  return (await run(events, encodeStream(CTX))).join("");
}

const TEXT_EVENTS: StreamEvent[] = [
  { type: "start", id: "resp_1", model: "gpt-5", created: 1_741_000_000 },
  { type: "blockStart", index: 0, kind: "text" },
  { type: "textDelta", index: 0, text: "Hi" },
  { type: "blockEnd", index: 0 },
  { type: "usage", usage: USAGE },
  { type: "finish", finish: { unified: "stop", raw: "stop" } },
];

/** Reasoning with encrypted content, text, then two tool calls streaming at the same time. */
const MIXED_EVENTS: StreamEvent[] = [
  { type: "start", id: "resp_mix", model: "gpt-5" },
  { type: "blockStart", index: 0, kind: "reasoning", family: "openai" },
  { type: "textDelta", index: 0, text: "Thinking" },
  { type: "signatureDelta", index: 0, signature: "ENC" },
  { type: "blockEnd", index: 0 },
  { type: "blockStart", index: 1, kind: "text" },
  { type: "textDelta", index: 1, text: "Two " },
  { type: "textDelta", index: 1, text: "calls." },
  { type: "blockEnd", index: 1 },
  { type: "blockStart", index: 2, kind: "toolCall", id: "call_a", name: "weather" },
  { type: "blockStart", index: 3, kind: "toolCall", id: "call_b", name: "weather" },
  { type: "argumentsDelta", index: 2, json: '{"city":' },
  { type: "argumentsDelta", index: 3, json: '{"city":"Rome"}' },
  { type: "argumentsDelta", index: 2, json: '"Oslo"}' },
  { type: "blockEnd", index: 3 },
  { type: "blockEnd", index: 2 },
  { type: "usage", usage: { inputTotal: 100, cacheRead: 40, cacheWrite: 0, output: 20, reasoning: 8 } },
  { type: "finish", finish: { unified: "tool_calls", raw: "tool_use" } },
];

Deno.test("encodeStream() writes the golden bytes for a one-text-block stream", async () => {
  const golden = await Deno.readTextFile(new URL("./golden/text_stream.sse", import.meta.url));
  assertEquals(await encode(TEXT_EVENTS), golden);
});

Deno.test("encodeStream() names every event, numbers it in order and never sends [DONE]", async () => {
  const text = await encode(MIXED_EVENTS);
  assert(!text.includes("[DONE]"));
  const payloads = await payloadsOf(text);
  assertEquals(payloads.map((p) => p.sequence_number), payloads.map((_, i) => i));
  const names = text.split("\n").filter((l) => l.startsWith("event: ")).map((l) => l.slice(7));
  assertEquals(names, payloads.map((p) => p.type));
  assertEquals(names, [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.done",
    "response.reasoning_summary_part.done",
    "response.output_item.done",
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
    "response.output_item.added",
    "response.output_item.added",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.output_item.done",
    "response.function_call_arguments.done",
    "response.output_item.done",
    "response.completed",
  ]);
});

Deno.test("encodeStream() gives interleaved tool calls their own output_index and item_id", async () => {
  const payloads = await payloadsOf(await encode(MIXED_EVENTS));
  const added = payloads.filter((p) => p.type === "response.output_item.added");
  const calls = added.slice(2).map((p) => ({
    index: p.output_index,
    item: p.item as Record<string, unknown>,
  }));
  assertEquals(calls.map((c) => [c.index, c.item.call_id, c.item.arguments]), [[2, "call_a", ""], [
    3,
    "call_b",
    "",
  ]]);
  const idOf = new Map(calls.map((c) => [c.index, c.item.id]));
  for (const p of payloads.filter((p) => String(p.type).startsWith("response.function_call_arguments"))) {
    assertEquals(p.item_id, idOf.get(p.output_index as number));
  }
  const done = payloads.filter((p) => p.type === "response.function_call_arguments.done");
  assertEquals(done.map((p) => [p.output_index, p.arguments]), [[3, '{"city":"Rome"}'], [
    2,
    '{"city":"Oslo"}',
  ]]);
});

Deno.test("encodeStream() output is accepted by the openai SDK stream helper", async () => {
  const response = await sdkStream(await encode(MIXED_EVENTS));
  assertEquals(response.status, "completed");
  assertEquals(response.output_text, "Two calls.");
  assertEquals(response.output.map((o) => o.type), [
    "reasoning",
    "message",
    "function_call",
    "function_call",
  ]);
  assertEquals(response.output[0].encrypted_content, "ENC");
  assertEquals(response.output.slice(2).map((o) => o.arguments), ['{"city":"Oslo"}', '{"city":"Rome"}']);
  assertEquals(response.usage, {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 40 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 8 },
    total_tokens: 120,
  });
});

Deno.test("encodeStream() ends a length-limited stream with response.incomplete", async () => {
  const events: StreamEvent[] = [...TEXT_EVENTS.slice(0, 5), {
    type: "finish",
    finish: { unified: "length", raw: "length" },
  }];
  const payloads = await payloadsOf(await encode(events));
  const last = payloads[payloads.length - 1];
  assertEquals(last.type, "response.incomplete");
  const response = last.response as Record<string, unknown>;
  assertEquals([response.status, response.incomplete_details], ["incomplete", {
    reason: "max_output_tokens",
  }]);
  assertEquals((await sdkStream(await encode(events))).output_text, "Hi");
});

Deno.test("encodeStream() turns a neutral error into response.failed and stops", async () => {
  const payloads = await payloadsOf(
    await encode([
      { type: "start", id: "resp_e", model: "gpt-5" },
      { type: "blockStart", index: 0, kind: "text" },
      { type: "textDelta", index: 0, text: "partial" },
      { type: "error", status: 429, kind: "rate_limit", message: "Upstream rate limited" },
      { type: "textDelta", index: 0, text: "ignored" },
    ]),
  );
  const last = payloads[payloads.length - 1];
  assertEquals(last.type, "response.failed");
  const response = last.response as Record<string, unknown>;
  assertEquals(response.status, "failed");
  assertEquals(response.error, { code: "rate_limit_exceeded", message: "Upstream rate limited" });
  assertEquals(payloads.filter((p) => p.type === "response.output_text.delta").length, 1);
});

Deno.test("encodeStream() opens the stream itself when events arrive without start", async () => {
  const payloads = await payloadsOf(
    await encode([
      { type: "blockStart", index: 0, kind: "toolCall", name: "f" },
      { type: "argumentsDelta", index: 0, json: "{}" },
    ]),
  );
  assertEquals(payloads.map((p) => p.type), [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.output_item.done",
    "response.completed",
  ]);
  const item = payloads[2].item as Record<string, unknown>;
  assert(String(item.call_id).startsWith("call_"), "a synthetic call id is minted");
});
