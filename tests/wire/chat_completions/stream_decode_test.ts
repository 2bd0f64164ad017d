import { assertEquals } from "../../helpers/assert.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import { chatCompletionsCodec } from "../../../src/wire/chat_completions/mod.ts";
import { frames, run } from "./stream_helpers.ts";
import { chunk, PARALLEL_TOOLS_TRANSCRIPT } from "./transcripts.ts";

const codec = chatCompletionsCodec;

Deno.test("decodeStream() turns a parallel tool-call transcript into ordered blocks, usage and finish", async () => {
  const events = await run(PARALLEL_TOOLS_TRANSCRIPT, codec.decodeStream());
  assertEquals(events, [
    { type: "start", id: "chatcmpl-xyz789", model: "gpt-4o", created: 1_700_000_000 },
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "Checking " },
    { type: "textDelta", index: 0, text: "both." },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "toolCall", id: "call_a", name: "weather" },
    { type: "argumentsDelta", index: 1, json: '{"city":' },
    { type: "argumentsDelta", index: 1, json: '"Paris"}' },
    { type: "blockEnd", index: 1 },
    { type: "blockStart", index: 2, kind: "toolCall", id: "call_b", name: "weather" },
    { type: "argumentsDelta", index: 2, json: '{"city":"Rome"}' },
    {
      type: "usage",
      usage: { inputTotal: 80, cacheRead: 16, cacheWrite: 0, output: 30, reasoning: 0 },
    },
    { type: "blockEnd", index: 2 },
    { type: "finish", finish: { unified: "tool_calls", raw: "tool_calls" } },
  ]);
});

Deno.test("decodeStream() opens a reasoning block for reasoning_content and reasoning deltas", async () => {
  const events = await run(
    frames(
      chunk({ role: "assistant", reasoning_content: "Let me" }),
      chunk({ reasoning: " think." }),
      chunk({ content: "Answer" }),
      chunk({}, "stop"),
    ),
    codec.decodeStream(),
  );
  assertEquals(events.slice(1), [
    { type: "blockStart", index: 0, kind: "reasoning" },
    { type: "textDelta", index: 0, text: "Let me" },
    { type: "textDelta", index: 0, text: " think." },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "text" },
    { type: "textDelta", index: 1, text: "Answer" },
    { type: "blockEnd", index: 1 },
    { type: "finish", finish: { unified: "stop", raw: "stop" } },
  ]);
});

Deno.test("decodeStream() ignores non-JSON data lines", async () => {
  const events = await run(
    frames("<html>502 Bad Gateway</html>", chunk({ content: "ok" }), "keep-alive", chunk({}, "stop")),
    codec.decodeStream(),
  );
  assertEquals(events.filter((e) => e.type === "textDelta"), [{ type: "textDelta", index: 0, text: "ok" }]);
});

Deno.test("decodeStream() synthesises a stop finish when content ended without finish_reason", async () => {
  const events = await run(frames(chunk({ content: "partial" })), codec.decodeStream());
  assertEquals(events.at(-1), { type: "finish", finish: { unified: "stop", raw: null } });
});

Deno.test("decodeStream() infers tool_calls when a tool-call stream ends without finish_reason", async () => {
  const events = await run(
    frames(
      chunk({ tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: "{}" } }] }),
      "[DONE]",
    ),
    codec.decodeStream(),
  );
  assertEquals(events.at(-1), { type: "finish", finish: { unified: "tool_calls", raw: null } });
});

Deno.test("decodeStream() emits nothing for a stream with no chunks", async () => {
  assertEquals(await run(frames("[DONE]"), codec.decodeStream()), []);
  assertEquals(await run([], codec.decodeStream()), []);
});

Deno.test("decodeStream() turns an error object inside a 200 stream into an error event", async () => {
  const events = await run(
    frames(
      chunk({ content: "Hel" }),
      { error: { code: 503, message: "The model is overloaded", status: "UNAVAILABLE" } },
      chunk({ content: "ignored" }),
    ),
    codec.decodeStream(),
  );
  assertEquals(
    events.at(-1),
    {
      type: "error",
      status: 503,
      message: "The model is overloaded",
      kind: "upstream",
    } satisfies StreamEvent,
  );
  assertEquals(events.filter((e) => e.type === "finish"), []);
});

Deno.test("decodeStream() keeps calls apart when an upstream numbers every call 0 but ids differ", async () => {
  const events = await run(
    frames(
      chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: "{}" } }] }),
      chunk({ tool_calls: [{ index: 0, id: "b", function: { name: "g", arguments: "{}" } }] }),
      chunk({}, "tool_calls"),
    ),
    codec.decodeStream(),
  );
  assertEquals(
    events.filter((e) => e.type === "blockStart"),
    [
      { type: "blockStart", index: 0, kind: "toolCall", id: "a", name: "f" },
      { type: "blockStart", index: 1, kind: "toolCall", id: "b", name: "g" },
    ],
  );
});
