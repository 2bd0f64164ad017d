import type { StreamEvent } from "../../../src/model/mod.ts";
import { messagesCodec } from "../../../src/wire/messages/mod.ts";
import { openReasoning } from "../../../src/wire/shared/reasoning_envelope.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { collect, framesOf, parsedEvents, pipe } from "./helpers.ts";

const ctx = { requestModel: "oai/gpt-5", now: 1_700_000_000 };

async function encode(events: readonly StreamEvent[]): Promise<string> {
  return (await pipe(events, messagesCodec.encodeStream(ctx))).join("");
}

const usage = (inputTotal: number, cacheRead: number, output: number) => ({
  type: "usage" as const,
  usage: { inputTotal, cacheRead, cacheWrite: 0, output, reasoning: 0 },
});

Deno.test("encodeStream() writes the exact messages event sequence (golden bytes)", async () => {
  const text = await encode([
    { type: "start", id: "chatcmpl-9x", model: "gpt-5" },
    usage(100, 40, 0),
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "Hi" },
    { type: "blockEnd", index: 0 },
    { type: "finish", finish: { unified: "stop", raw: "stop" } },
    usage(100, 40, 7),
  ]);
  assertEquals(
    text,
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_chatcmpl-9x","type":"message",' +
      '"role":"assistant","model":"oai/gpt-5","content":[],"stop_reason":null,"stop_sequence":null,' +
      '"usage":{"input_tokens":60,"cache_creation_input_tokens":0,"cache_read_input_tokens":40,"output_tokens":0}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n' +
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n' +
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},' +
      '"usage":{"input_tokens":60,"cache_creation_input_tokens":0,"cache_read_input_tokens":40,"output_tokens":7}}\n\n' +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  );
});

Deno.test("encodeStream() never interleaves blocks: later blocks are buffered and indexed in emission order", async () => {
  // OpenAI-style: text stays open while two tool calls stream at the same time.
  const text = await encode([
    { type: "start", id: "chatcmpl-1", model: "gpt-5" },
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "Let me check." },
    { type: "blockStart", index: 1, kind: "toolCall", id: "call_a", name: "ls" },
    { type: "blockStart", index: 2, kind: "toolCall", id: "call_b", name: "cat" },
    { type: "argumentsDelta", index: 2, json: '{"f":' },
    { type: "argumentsDelta", index: 1, json: '{"d":"."}' },
    { type: "textDelta", index: 0, text: " Now." },
    { type: "argumentsDelta", index: 2, json: '"x"}' },
    { type: "blockEnd", index: 0 },
    { type: "blockEnd", index: 2 },
    { type: "blockEnd", index: 1 },
    { type: "finish", finish: { unified: "tool_calls", raw: "tool_calls" } },
  ]);
  const events = await parsedEvents(text);
  const summary = events.map(({ data }) => {
    const d = data as Record<string, Record<string, unknown> | string | number>;
    const inner = (d.delta ?? d.content_block ?? {}) as Record<string, unknown>;
    return [d.type, d.index, inner.text ?? inner.partial_json ?? inner.id ?? inner.stop_reason].filter((x) =>
      x !== undefined
    ).join(" ");
  });
  assertEquals(summary, [
    "message_start",
    "content_block_start 0 ",
    "content_block_delta 0 Let me check.",
    "content_block_delta 0  Now.",
    "content_block_stop 0",
    "content_block_start 1 call_a",
    'content_block_delta 1 {"d":"."}',
    "content_block_stop 1",
    "content_block_start 2 call_b",
    'content_block_delta 2 {"f":',
    'content_block_delta 2 "x"}',
    "content_block_stop 2",
    "message_delta tool_use",
    "message_stop",
  ]);
  assertEquals(events.every((e) => e.event === (e.data as { type: string }).type), true);
});

Deno.test("encodeStream() closes open blocks and synthesises end_turn when the upstream never finishes", async () => {
  const events = await parsedEvents(
    await encode([
      { type: "blockStart", index: 0, kind: "text" },
      { type: "blockStart", index: 1, kind: "text" },
      { type: "textDelta", index: 1, text: "late" },
    ]),
  );
  assertEquals(events.map((e) => e.event), [
    "message_start",
    "content_block_start",
    "content_block_stop",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
  ]);
  assertEquals((events[6].data as { delta: unknown }).delta, {
    stop_reason: "end_turn",
    stop_sequence: null,
  });
  assertEquals((events[0].data as { message: { id: string } }).message.id.startsWith("msg_"), true);
});

Deno.test("encodeStream() sends a neutral error as a messages error event and stops", async () => {
  const text = await encode([
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "par" },
    { type: "error", status: 502, kind: "upstream", message: "upstream reset the connection" },
    { type: "textDelta", index: 0, text: "ignored" },
  ]);
  assertEquals(
    text.slice(text.indexOf("event: error")),
    'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"upstream reset the connection"}}\n\n',
  );
});

Deno.test("encodeStream() forwards Anthropic signatures, seals other families' tokens and shows redacted blocks", async () => {
  const events = await parsedEvents(
    await encode([
      { type: "blockStart", index: 0, kind: "reasoning", family: "google" },
      { type: "textDelta", index: 0, text: "g" },
      { type: "signatureDelta", index: 0, signature: "gsig" },
      { type: "blockEnd", index: 0 },
      { type: "blockStart", index: 1, kind: "reasoning", family: "anthropic" },
      { type: "textDelta", index: 1, text: "a" },
      { type: "signatureDelta", index: 1, signature: "asig" },
      { type: "blockEnd", index: 1 },
      { type: "blockStart", index: 2, kind: "reasoning", family: "anthropic", redactedData: "opaque" },
      { type: "blockEnd", index: 2 },
      // OpenAI's encrypted content, known at the start or only at the end, arrives in pieces.
      { type: "blockStart", index: 3, kind: "reasoning", family: "openai", redactedData: "enc-start" },
      { type: "textDelta", index: 3, text: "o" },
      { type: "blockEnd", index: 3 },
      { type: "blockStart", index: 4, kind: "reasoning", family: "openai" },
      { type: "signatureDelta", index: 4, signature: "enc-" },
      { type: "signatureDelta", index: 4, signature: "end" },
      { type: "blockEnd", index: 4 },
      { type: "blockStart", index: 5, kind: "reasoning", family: "other" },
      { type: "textDelta", index: 5, text: "plain" },
      { type: "blockEnd", index: 5 },
    ]),
  );
  const blocks = events.filter((e) =>
    e.event?.startsWith("content_block_") && e.event !== "content_block_stop"
  )
    .map((e) => {
      const d = e.data as Record<string, unknown>;
      return (d.delta ?? d.content_block) as Record<string, unknown>;
    })
    .map((b) =>
      b.type === "signature_delta" && typeof b.signature === "string" && openReasoning(b.signature)
        ? { sealed: openReasoning(b.signature) }
        : b
    );
  assertEquals(blocks, [
    { type: "thinking", thinking: "" },
    { type: "thinking_delta", thinking: "g" },
    { sealed: { family: "google", signature: "gsig" } },
    { type: "thinking", thinking: "" },
    { type: "thinking_delta", thinking: "a" },
    { type: "signature_delta", signature: "asig" },
    { type: "redacted_thinking", data: "opaque" },
    { type: "thinking", thinking: "" },
    { type: "thinking_delta", thinking: "o" },
    { sealed: { family: "openai", redactedData: "enc-start" } },
    { type: "thinking", thinking: "" },
    { sealed: { family: "openai", signature: "enc-end" } },
    { type: "thinking", thinking: "" },
    { type: "thinking_delta", thinking: "plain" },
  ]);
});

Deno.test("encodeStream() output decodes back to the same answer (stream-collects-to-response)", async () => {
  const source: StreamEvent[] = [
    { type: "start", id: "resp_1", model: "gpt-5" },
    { type: "blockStart", index: 0, kind: "reasoning", family: "anthropic" },
    { type: "textDelta", index: 0, text: "think" },
    { type: "signatureDelta", index: 0, signature: "sig" },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "text" },
    { type: "blockEnd", index: 1 },
    { type: "blockStart", index: 2, kind: "toolCall", id: "fc.1:x", name: "run" },
    { type: "argumentsDelta", index: 2, json: '{"cmd":"ls"}' },
    { type: "blockEnd", index: 2 },
    { type: "finish", finish: { unified: "tool_calls", raw: "tool_calls" } },
    usage(500, 300, 42),
  ];
  const decoded = await pipe(await framesOf(await encode(source)), messagesCodec.decodeStream());
  const answer = collect(decoded);
  assertEquals(answer.parts, [
    { kind: "reasoning", text: "think", signature: "sig", family: "anthropic" },
    { kind: "text", text: "" },
    { kind: "toolCall", id: "fc_1_x", name: "run", arguments: '{"cmd":"ls"}' },
  ]);
  assertEquals(answer.finish, { unified: "tool_calls", raw: "tool_use" });
  assertEquals(answer.usage, { inputTotal: 500, cacheRead: 300, cacheWrite: 0, output: 42, reasoning: 0 });
  assertEquals(answer.model, ctx.requestModel);
  assertEquals(answer.id, "msg_resp_1");
});
