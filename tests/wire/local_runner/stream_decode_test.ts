import type { StreamEvent } from "../../../src/model/mod.ts";
import { localRunnerCodec } from "../../../src/wire/local_runner/mod.ts";
import { syntheticToolId } from "../../../src/wire/shared/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { collect, frames, pipe } from "./stream_helpers.ts";

const at = "2025-06-01T10:00:00.5Z";
const line = (message: Record<string, unknown>) => ({
  model: "qwen3:8b",
  created_at: at,
  message: { role: "assistant", content: "", ...message },
  done: false,
});
const doneLine = {
  model: "qwen3:8b",
  created_at: at,
  message: { role: "assistant", content: "" },
  done: true,
  done_reason: "stop",
  total_duration: 912345678,
  load_duration: 1234567,
  prompt_eval_count: 26,
  prompt_eval_duration: 3456789,
  eval_count: 9,
  eval_duration: 8765432,
};

const decode = (...lines: unknown[]) => pipe(frames(...lines), localRunnerCodec.decodeStream());

Deno.test("decodeStream() turns a thinking-then-content transcript into reasoning and text blocks", async () => {
  const events = await decode(
    line({ thinking: "The user" }),
    line({ thinking: " greets." }),
    line({ content: "Hello" }),
    line({ content: "!" }),
    doneLine,
  );
  const start = events[0] as Extract<StreamEvent, { type: "start" }>;
  assertEquals(events, [
    { type: "start", id: start.id, model: "qwen3:8b", created: Math.floor(Date.parse(at) / 1000) },
    { type: "blockStart", index: 0, kind: "reasoning" },
    { type: "textDelta", index: 0, text: "The user" },
    { type: "textDelta", index: 0, text: " greets." },
    { type: "blockEnd", index: 0 },
    { type: "blockStart", index: 1, kind: "text" },
    { type: "textDelta", index: 1, text: "Hello" },
    { type: "textDelta", index: 1, text: "!" },
    { type: "blockEnd", index: 1 },
    { type: "usage", usage: { inputTotal: 26, cacheRead: 0, cacheWrite: 0, output: 9, reasoning: 0 } },
    { type: "finish", finish: { unified: "stop", raw: "stop" } },
  ]);
});

Deno.test("decodeStream() emits each tool call as one whole block and finishes with tool_calls", async () => {
  const events = await decode(
    line({ content: "Checking." }),
    line({
      tool_calls: [
        { function: { name: "get_weather", arguments: { city: "Paris" } } },
        { id: "call_given", function: { name: "get_time", arguments: {} } },
      ],
    }),
    doneLine,
  );
  const id = (events[0] as Extract<StreamEvent, { type: "start" }>).id;
  assertEquals(events.slice(1), [
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "Checking." },
    { type: "blockEnd", index: 0 },
    {
      type: "blockStart",
      index: 1,
      kind: "toolCall",
      id: syntheticToolId(id, 0, "get_weather"),
      name: "get_weather",
    },
    { type: "argumentsDelta", index: 1, json: '{"city":"Paris"}' },
    { type: "blockEnd", index: 1 },
    { type: "blockStart", index: 2, kind: "toolCall", id: "call_given", name: "get_time" },
    { type: "argumentsDelta", index: 2, json: "{}" },
    { type: "blockEnd", index: 2 },
    { type: "usage", usage: { inputTotal: 26, cacheRead: 0, cacheWrite: 0, output: 9, reasoning: 0 } },
    { type: "finish", finish: { unified: "tool_calls", raw: "stop" } },
  ]);
});

Deno.test("decodeStream() maps done_reason length and skips blank or non-JSON lines", async () => {
  const events = await decode(
    line({ content: "a" }),
    "not json",
    "[1,2]",
    { ...doneLine, done_reason: "length" },
  );
  assertEquals(events.at(-1), { type: "finish", finish: { unified: "length", raw: "length" } });
  assertEquals(events.filter((e) => e.type === "textDelta").length, 1);
});

Deno.test("decodeStream() turns an error line into an error event and closes the open block", async () => {
  const events = await decode(line({ content: "par" }), {
    error: "an error was encountered while running the model",
  });
  assertEquals(events.slice(-2), [
    { type: "blockEnd", index: 0 },
    {
      type: "error",
      status: 502,
      kind: "upstream",
      message: "an error was encountered while running the model",
    },
  ]);
});

Deno.test("decodeStream() closes open blocks when the upstream stops without a done line", async () => {
  const events = await decode(line({ content: "cut" }));
  assertEquals(events.slice(1).map((e) => e.type), ["blockStart", "textDelta", "blockEnd"]);
});

Deno.test("decodeStream() collects to the same response decodeResponse gives for the whole answer", async () => {
  const events = await decode(
    line({ thinking: "Hm" }),
    line({ content: "Let me check." }),
    line({ tool_calls: [{ function: { name: "f", arguments: { q: "x" } } }] }),
    doneLine,
  );
  const whole = localRunnerCodec.decodeResponse({
    ...doneLine,
    message: {
      role: "assistant",
      content: "Let me check.",
      thinking: "Hm",
      tool_calls: [{ function: { name: "f", arguments: { q: "x" } } }],
    },
  });
  // The stream carries no runner timings, so only the whole answer has extra.
  const { extra: _timings, ...rest } = whole;
  assertEquals(collect(events), rest);
});
