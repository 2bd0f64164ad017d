import { assertEquals } from "../../helpers/assert.ts";
import { decodeKiroStream, ThinkingSplitter } from "../../../src/wire/kiro/mod.ts";
import { eventStreamFrames, type Frame } from "../../../src/wire/framing/mod.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import { collect } from "../../helpers/collect.ts";
import { kiroEvent, kiroException } from "../../helpers/event_stream_encode.ts";

/** Bytes → frames → neutral events, the wire cut into `size`-byte reads. */
function decodeBytes(messages: readonly Uint8Array[], size: number): StreamEvent[] {
  const wire = new Uint8Array(messages.reduce((n, m) => n + m.length, 0));
  let at = 0;
  for (const m of messages) {
    wire.set(m, at);
    at += m.length;
  }
  const frames: Frame[] = [];
  const framer = eventStreamFrames().steps;
  const sink = { enqueue: (f: Frame) => frames.push(f) };
  for (let i = 0; i < wire.length; i += size) framer.transform(wire.slice(i, i + size), sink);
  framer.flush?.(sink);
  const events: StreamEvent[] = [];
  const decoder = decodeKiroStream().steps;
  const out = { enqueue: (e: StreamEvent) => events.push(e) };
  for (const frame of frames) decoder.transform(frame, out);
  decoder.flush?.(out);
  return events;
}

const ANSWER = [
  kiroEvent("assistantResponseEvent", { content: "<think" }),
  kiroEvent("assistantResponseEvent", { content: "ing>plan it</thin" }),
  kiroEvent("assistantResponseEvent", { content: "king>Checking the weather." }),
  kiroEvent("toolUseEvent", { toolUseId: "tooluse_1", name: "get_weather", input: "" }),
  kiroEvent("toolUseEvent", { toolUseId: "tooluse_1", name: "get_weather", input: '{"ci' }),
  kiroEvent("toolUseEvent", { toolUseId: "tooluse_1", name: "get_weather", input: 'ty":"Paris"}' }),
  kiroEvent("toolUseEvent", { toolUseId: "tooluse_1", name: "get_weather", stop: true }),
  kiroEvent("contextUsageEvent", { contextUsagePercentage: 1.5 }),
  kiroEvent("metricsEvent", { inputTokens: 40, outputTokens: 12, cacheReadInputTokens: 8 }),
];

Deno.test("decodeKiroStream() turns thinking tags, fragmented tool input and metrics into neutral events, whatever the read size", () => {
  const expected = decodeBytes(ANSWER, 1 << 20);
  for (const size of [1, 3, 7, 64]) {
    assertEquals(decodeBytes(ANSWER, size), expected, `reads of ${size} bytes`);
  }
  const collected = collect(expected);
  assertEquals(collected.parts, [
    { kind: "reasoning", text: "plan it" },
    { kind: "text", text: "Checking the weather." },
    { kind: "toolCall", id: "tooluse_1", name: "get_weather", arguments: '{"city":"Paris"}' },
  ]);
  assertEquals(collected.finish, { unified: "tool_calls", raw: null });
  assertEquals(collected.usage, { inputTotal: 48, cacheRead: 8, cacheWrite: 0, output: 12, reasoning: 0 });
  assertEquals(collected.errors, []);
});

Deno.test("decodeKiroStream() ends with an error event on an exception frame, mapping throttling to 429", () => {
  const events = decodeBytes([
    kiroEvent("assistantResponseEvent", { content: "Hi" }),
    kiroException("ThrottlingException", "Too many requests"),
    kiroEvent("assistantResponseEvent", { content: "ignored" }),
  ], 5);
  assertEquals(events.at(-1), {
    type: "error",
    status: 429,
    kind: "rate_limit",
    message: "Cloud assistant stream failed (ThrottlingException): Too many requests",
  });
  assertEquals(collect(events).parts, [{ kind: "text", text: "Hi" }]);
});

Deno.test("decodeKiroStream() treats an event payload typed as an exception as an error before any content", () => {
  const events = decodeBytes([
    kiroEvent("assistantResponseEvent", {
      _type: "com.amazon.aws.codewhisperer#ValidationException",
      message: "Improperly formed request",
    }),
  ], 16);
  assertEquals(events, [{
    type: "error",
    status: 400,
    kind: "invalid_request",
    message: "Cloud assistant stream failed (ValidationException): Improperly formed request",
  }]);
});

Deno.test("decodeKiroStream() maps a max_tokens stop reason to length and a plain end to stop", () => {
  const cut = collect(decodeBytes([
    kiroEvent("assistantResponseEvent", { content: "a" }),
    kiroEvent("messageStopEvent", { stopReason: "max_tokens" }),
  ], 100));
  assertEquals(cut.finish, { unified: "length", raw: "max_tokens" });
  const plain = collect(decodeBytes([kiroEvent("assistantResponseEvent", { content: "a" })], 100));
  assertEquals(plain.finish, { unified: "stop", raw: null });
});

Deno.test("ThinkingSplitter keeps a '<' that never becomes a tag as text", () => {
  const splitter = new ThinkingSplitter();
  assertEquals(splitter.push("a <"), [{ kind: "text", text: "a " }]);
  assertEquals(splitter.push("b"), [{ kind: "text", text: "<b" }]);
  assertEquals(splitter.push("x <thi"), [{ kind: "text", text: "x " }]);
  assertEquals(splitter.flush(), [{ kind: "text", text: "<thi" }]);
});
