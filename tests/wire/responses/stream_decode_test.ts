import { assertEquals } from "../../helpers/assert.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import { decodeStream } from "../../../src/wire/responses/mod.ts";
import { collect, framesOf, run, sse } from "./helpers.ts";

async function decode(text: string): Promise<StreamEvent[]> {
  return await run(await framesOf(text), decodeStream());
}

const RESPONSE = {
  id: "resp_1",
  object: "response",
  created_at: 1_741_000_000,
  model: "gpt-5",
  status: "in_progress",
};
const msg = { id: "msg_1", type: "message", status: "in_progress", role: "assistant", content: [] };
const fc = (n: number, args = "") => ({
  id: `fc_${n}`,
  type: "function_call",
  status: "in_progress",
  call_id: `call_${n}`,
  name: "weather",
  arguments: args,
});

/** A realistic upstream transcript: text, two function calls, completed with usage. */
const TRANSCRIPT = sse([
  { type: "response.created", sequence_number: 0, response: { ...RESPONSE, output: [] } },
  { type: "response.in_progress", sequence_number: 1, response: { ...RESPONSE, output: [] } },
  { type: "response.output_item.added", sequence_number: 2, output_index: 0, item: msg },
  {
    type: "response.content_part.added",
    sequence_number: 3,
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    part: { type: "output_text", text: "", annotations: [] },
  },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Check" },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "ing." },
  {
    type: "response.output_text.done",
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    text: "Checking.",
  },
  {
    type: "response.output_item.done",
    output_index: 0,
    item: {
      ...msg,
      status: "completed",
      content: [{ type: "output_text", text: "Checking.", annotations: [] }],
    },
  },
  { type: "response.output_item.added", output_index: 1, item: fc(1) },
  { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 1, delta: '{"city":' },
  { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 1, delta: '"Oslo"}' },
  {
    type: "response.function_call_arguments.done",
    item_id: "fc_1",
    output_index: 1,
    arguments: '{"city":"Oslo"}',
  },
  {
    type: "response.output_item.done",
    output_index: 1,
    item: { ...fc(1, '{"city":"Oslo"}'), status: "completed" },
  },
  { type: "response.output_item.added", output_index: 2, item: fc(2) },
  {
    type: "response.function_call_arguments.delta",
    item_id: "fc_2",
    output_index: 2,
    delta: '{"city":"Rome"}',
  },
  {
    type: "response.output_item.done",
    output_index: 2,
    item: { ...fc(2, '{"city":"Rome"}'), status: "completed" },
  },
  {
    type: "response.completed",
    response: {
      ...RESPONSE,
      status: "completed",
      output: [],
      usage: {
        input_tokens: 900,
        input_tokens_details: { cached_tokens: 512 },
        output_tokens: 60,
        output_tokens_details: { reasoning_tokens: 10 },
        total_tokens: 960,
      },
    },
  },
]);

Deno.test("decodeStream() turns a text + two function calls transcript into neutral events", async () => {
  assertEquals(await decode(TRANSCRIPT), [
    { type: "start", id: "resp_1", model: "gpt-5", created: 1_741_000_000 },
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "Check" },
    { type: "textDelta", index: 0, text: "ing." },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "toolCall", id: "call_1", name: "weather" },
    { type: "argumentsDelta", index: 1, json: '{"city":' },
    { type: "argumentsDelta", index: 1, json: '"Oslo"}' },
    { type: "blockEnd", index: 1 },
    { type: "blockStart", index: 2, kind: "toolCall", id: "call_2", name: "weather" },
    { type: "argumentsDelta", index: 2, json: '{"city":"Rome"}' },
    { type: "blockEnd", index: 2 },
    { type: "usage", usage: { inputTotal: 900, cacheRead: 512, cacheWrite: 0, output: 60, reasoning: 10 } },
    { type: "finish", finish: { unified: "tool_calls", raw: "completed" } },
  ]);
});

Deno.test("decodeStream() reads the event name from the SSE event line when data has no type", async () => {
  const text = `event: response.created\ndata: ${JSON.stringify({ response: RESPONSE })}\n\n` +
    `event: response.completed\ndata: ${
      JSON.stringify({ response: { ...RESPONSE, status: "completed" } })
    }\n\n`;
  assertEquals(await decode(text), [
    { type: "start", id: "resp_1", model: "gpt-5", created: 1_741_000_000 },
    { type: "finish", finish: { unified: "stop", raw: "completed" } },
  ]);
});

Deno.test("decodeStream() sends arguments that only arrive on the finished item", async () => {
  const events = await decode(sse([
    { type: "response.created", response: RESPONSE },
    { type: "response.output_item.added", output_index: 0, item: fc(1) },
    {
      type: "response.output_item.done",
      output_index: 0,
      item: { ...fc(1, '{"x":1}'), status: "completed" },
    },
    { type: "response.completed", response: { ...RESPONSE, status: "completed" } },
  ]));
  assertEquals(events.slice(1, 4), [
    { type: "blockStart", index: 0, kind: "toolCall", id: "call_1", name: "weather" },
    { type: "argumentsDelta", index: 0, json: '{"x":1}' },
    { type: "blockEnd", index: 0 },
  ]);
});

Deno.test("decodeStream() streams reasoning summaries and carries encrypted content as the signature", async () => {
  const rs = { id: "rs_1", type: "reasoning", summary: [] };
  const events = await decode(sse([
    { type: "response.created", response: RESPONSE },
    { type: "response.output_item.added", output_index: 0, item: rs },
    { type: "response.reasoning_summary_part.added", item_id: "rs_1", output_index: 0, summary_index: 0 },
    {
      type: "response.reasoning_summary_text.delta",
      item_id: "rs_1",
      output_index: 0,
      summary_index: 0,
      delta: "A",
    },
    {
      type: "response.reasoning_summary_text.delta",
      item_id: "rs_1",
      output_index: 0,
      summary_index: 1,
      delta: "B",
    },
    {
      type: "response.output_item.done",
      output_index: 0,
      item: { ...rs, summary: [{ type: "summary_text", text: "A" }], encrypted_content: "ENC" },
    },
    {
      type: "response.incomplete",
      response: { ...RESPONSE, status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
    },
  ]));
  assertEquals(events.slice(1), [
    { type: "blockStart", index: 0, kind: "reasoning", family: "openai" },
    { type: "textDelta", index: 0, text: "A" },
    { type: "textDelta", index: 0, text: "\n\n" },
    { type: "textDelta", index: 0, text: "B" },
    { type: "signatureDelta", index: 0, signature: "ENC" },
    { type: "blockEnd", index: 0 },
    { type: "finish", finish: { unified: "length", raw: "max_output_tokens" } },
  ]);
});

Deno.test("decodeStream() turns response.failed and error events into error events", async () => {
  const failed = await decode(sse([
    { type: "response.created", response: RESPONSE },
    {
      type: "response.failed",
      response: { ...RESPONSE, status: "failed", error: { code: "server_error", message: "boom" } },
    },
  ]));
  assertEquals(failed[1], { type: "error", status: 502, kind: "upstream", message: "boom" });

  const limited = await decode(sse([
    { type: "error", code: "rate_limit_exceeded", message: "slow down", param: null },
  ]));
  assertEquals(limited, [{ type: "error", status: 429, kind: "rate_limit", message: "slow down" }]);
});

Deno.test("decodeStream() reports a stream that ends without response.completed", async () => {
  const events = await decode(sse([
    { type: "response.created", response: RESPONSE },
    { type: "response.output_item.added", output_index: 0, item: msg },
    { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hi" },
  ]));
  assertEquals(events.slice(-2), [
    { type: "blockEnd", index: 0 },
    {
      type: "error",
      status: 502,
      kind: "upstream",
      message: "Upstream stream ended before response.completed",
    },
  ]);
});

Deno.test("decodeStream() events collect into the streamed text and both calls", async () => {
  const response = collect(await decode(TRANSCRIPT));
  assertEquals(response.parts, [
    { kind: "text", text: "Checking." },
    { kind: "toolCall", id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' },
    { kind: "toolCall", id: "call_2", name: "weather", arguments: '{"city":"Rome"}' },
  ]);
  assertEquals(response.finish.unified, "tool_calls");
});
