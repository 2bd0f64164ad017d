import { assertEquals } from "../../helpers/assert.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import { chatCompletionsCodec } from "../../../src/wire/chat_completions/mod.ts";
import { sseFrames } from "../../../src/wire/framing/mod.ts";
import { collect, run } from "./stream_helpers.ts";
import { PARALLEL_TOOLS_TRANSCRIPT } from "./transcripts.ts";

const codec = chatCompletionsCodec;
const CTX = { requestModel: "openai/gpt-4o", now: 1_700_000_000 };

const EVENTS: StreamEvent[] = [
  { type: "start", id: "msg_1", model: "m", created: 1 },
  { type: "blockStart", index: 0, kind: "reasoning" },
  { type: "textDelta", index: 0, text: "hm" },
  { type: "blockEnd", index: 0 },
  { type: "blockStart", index: 1, kind: "text" },
  { type: "textDelta", index: 1, text: "Hi" },
  { type: "blockEnd", index: 1 },
  { type: "blockStart", index: 2, kind: "toolCall", id: "call_1", name: "f" },
  { type: "argumentsDelta", index: 2, json: '{"a":1}' },
  { type: "blockEnd", index: 2 },
  { type: "usage", usage: { inputTotal: 5, cacheRead: 0, cacheWrite: 0, output: 7, reasoning: 2 } },
  { type: "finish", finish: { unified: "tool_calls", raw: "tool_use" } },
];

const HEAD =
  '{"id":"chatcmpl-msg_1","object":"chat.completion.chunk","created":1,"model":"openai/gpt-4o","choices":[{"index":0,';

const GOLDEN = [
  `data: ${HEAD}"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
  `data: ${HEAD}"delta":{"reasoning_content":"hm"},"logprobs":null,"finish_reason":null}]}\n\n`,
  `data: ${HEAD}"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}]}\n\n`,
  `data: ${HEAD}"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f",` +
  `"arguments":""}}]},"logprobs":null,"finish_reason":null}]}\n\n`,
  `data: ${HEAD}"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"a\\":1}"}}]},"logprobs":null,` +
  `"finish_reason":null}]}\n\n`,
  `data: ${HEAD}"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,` +
  `"completion_tokens":7,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":0},` +
  `"completion_tokens_details":{"reasoning_tokens":2}}}\n\n`,
  "data: [DONE]\n\n",
].join("");

Deno.test("encodeStream() writes the exact chat-completion chunk bytes for a small event list", async () => {
  const out = await run(EVENTS, codec.encodeStream(CTX));
  assertEquals(out.join(""), GOLDEN);
});

Deno.test("encodeStream() ends with [DONE] after an error event", async () => {
  const out = await run<StreamEvent, string>([
    { type: "start", id: "chatcmpl-abcdefgh", model: "m", created: 1 },
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "Hel" },
    { type: "error", status: 503, message: "upstream overloaded", kind: "overloaded" },
    { type: "textDelta", index: 0, text: "lo" },
  ], codec.encodeStream(CTX));
  assertEquals(out.slice(-2), [
    'data: {"error":{"message":"upstream overloaded","type":"api_error","param":null,"code":"overloaded"}}\n\n',
    "data: [DONE]\n\n",
  ]);
  assertEquals(out.length, 4);
});

Deno.test("encodeStream() synthesises a finish chunk when the events carry none", async () => {
  const out = await run<StreamEvent, string>([
    { type: "start", id: "", model: "", created: 1 },
    { type: "textDelta", index: 0, text: "x" },
  ], codec.encodeStream(CTX));
  assertEquals(out.length, 4);
  assertEquals(JSON.parse(out[2].slice(6)).choices[0].finish_reason, "stop");
  assertEquals(JSON.parse(out[2].slice(6)).id, `chatcmpl-${CTX.now}`);
  assertEquals(JSON.parse(out[2].slice(6)).model, CTX.requestModel);
  assertEquals(out[3], "data: [DONE]\n\n");
});

Deno.test("decodeStream() collects to the same response as decodeResponse() of the equivalent body", async () => {
  const streamed = collect(await run(PARALLEL_TOOLS_TRANSCRIPT, codec.decodeStream()));
  const whole = codec.decodeResponse({
    id: "chatcmpl-xyz789",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "gpt-4o",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: "Checking both.",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          { id: "call_b", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
        ],
      },
      finish_reason: "tool_calls",
    }],
    usage: {
      prompt_tokens: 80,
      completion_tokens: 30,
      total_tokens: 110,
      prompt_tokens_details: { cached_tokens: 16 },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  });
  assertEquals(streamed, whole);
});

Deno.test("encodeStream() output decodes back to the same response", async () => {
  const text = (await run(EVENTS, codec.encodeStream(CTX))).join("");
  const frames = await run([text], sseFrames());
  const again = collect(await run(frames, codec.decodeStream()));
  const original = collect(EVENTS);
  // Only the id prefix and the raw finish value change: the wire carries OpenAI's own vocabulary.
  assertEquals(again, {
    ...original,
    id: "chatcmpl-msg_1",
    model: CTX.requestModel,
    finish: { unified: "tool_calls", raw: "tool_calls" },
  });
});
