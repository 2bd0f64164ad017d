import type { StreamEvent } from "../../../src/model/mod.ts";
import { messagesCodec } from "../../../src/wire/messages/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { collect, framesOf, pipe, sse } from "./helpers.ts";

/** A realistic upstream transcript: thinking, text, a tool call with streamed JSON, usage in both ends. */
const TRANSCRIPT = sse(
  {
    type: "message_start",
    message: {
      id: "msg_01Stream",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 200,
        cache_read_input_tokens: 3000,
        output_tokens: 1,
      },
    },
  },
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "User wants " } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "the file." } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQBCkYIB" } },
  { type: "content_block_stop", index: 0 },
  { type: "ping" },
  { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Reading " } },
  { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "it." } },
  { type: "content_block_stop", index: 1 },
  {
    type: "content_block_start",
    index: 2,
    content_block: { type: "tool_use", id: "toolu_01Abc", name: "Read", input: {} },
  },
  { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: "" } },
  {
    type: "content_block_delta",
    index: 2,
    delta: { type: "input_json_delta", partial_json: '{"file_path":' },
  },
  { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '"/a.ts"}' } },
  { type: "content_block_stop", index: 2 },
  {
    type: "message_delta",
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: {
      input_tokens: 10,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 3000,
      output_tokens: 57,
    },
  },
  { type: "message_stop" },
);

async function decode(text: string): Promise<StreamEvent[]> {
  return pipe(await framesOf(text), messagesCodec.decodeStream());
}

Deno.test("decodeStream() turns a thinking + text + tool_use transcript into neutral block events", async () => {
  const events = await decode(TRANSCRIPT);
  const folded = { inputTotal: 3210, cacheRead: 3000, cacheWrite: 200, reasoning: 0 };
  assertEquals(events, [
    { type: "start", id: "msg_01Stream", model: "claude-sonnet-4-5-20250929" },
    { type: "usage", usage: { ...folded, output: 1 } },
    { type: "blockStart", index: 0, kind: "reasoning", family: "anthropic" },
    { type: "textDelta", index: 0, text: "User wants " },
    { type: "textDelta", index: 0, text: "the file." },
    { type: "signatureDelta", index: 0, signature: "EqQBCkYIB" },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "text" },
    { type: "textDelta", index: 1, text: "Reading " },
    { type: "textDelta", index: 1, text: "it." },
    { type: "blockEnd", index: 1 },
    { type: "blockStart", index: 2, kind: "toolCall", id: "toolu_01Abc", name: "Read" },
    { type: "argumentsDelta", index: 2, json: '{"file_path":' },
    { type: "argumentsDelta", index: 2, json: '"/a.ts"}' },
    { type: "blockEnd", index: 2 },
    { type: "usage", usage: { ...folded, output: 57 } },
    { type: "finish", finish: { unified: "tool_calls", raw: "tool_use" } },
  ]);
});

Deno.test("decodeStream() collects to the same response decodeResponse gives for the whole answer", async () => {
  const streamed = collect(await decode(TRANSCRIPT));
  const whole = messagesCodec.decodeResponse({
    id: "msg_01Stream",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    content: [
      { type: "thinking", thinking: "User wants the file.", signature: "EqQBCkYIB" },
      { type: "text", text: "Reading it." },
      { type: "tool_use", id: "toolu_01Abc", name: "Read", input: { file_path: "/a.ts" } },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: {
      input_tokens: 10,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 3000,
      output_tokens: 57,
    },
  });
  const { extra: _, ...expected } = whole;
  assertEquals(streamed, expected);
});

Deno.test("decodeStream() keeps input usage that only arrives in message_delta (compatible upstreams)", async () => {
  const events = await decode(sse(
    {
      type: "message_start",
      message: { id: "msg_q", model: "qwen", usage: { input_tokens: 0, output_tokens: 0 } },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } },
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "end_turn" },
      usage: { input_tokens: 40, cache_read_input_tokens: 60, output_tokens: 2 },
    },
    { type: "message_stop" },
  ));
  assertEquals(collect(events).usage, {
    inputTotal: 100,
    cacheRead: 60,
    cacheWrite: 0,
    output: 2,
    reasoning: 0,
  });
});

Deno.test("decodeStream() turns an error event into a neutral error and stops", async () => {
  const events = await decode(
    sse({ type: "message_start", message: { id: "m", model: "c" } }) +
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n' +
      sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  );
  assertEquals(events.at(-1), {
    type: "error",
    status: 529,
    kind: "overloaded",
    message: "messages upstream error (overloaded_error): Overloaded",
  });
  assertEquals(events.length, 2);
});

Deno.test("decodeStream() carries redacted thinking, skips server-tool blocks and closes cut-off blocks", async () => {
  const events = await decode(
    sse(
      {
        type: "message_start",
        message: { id: "m", model: "c", usage: { input_tokens: 5, output_tokens: 1 } },
      },
      { type: "content_block_start", index: 0, content_block: { type: "redacted_thinking", data: "opaque" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"q":1}' } },
      { type: "content_block_stop", index: 1 },
      { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "par" } },
    ) + "data: <html>bad gateway</html>\n\n",
  );
  assertEquals(events.slice(2), [
    { type: "blockStart", index: 0, kind: "reasoning", redactedData: "opaque", family: "anthropic" },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 2, kind: "text" },
    { type: "textDelta", index: 2, text: "par" },
    { type: "blockEnd", index: 2 },
  ]);
});
