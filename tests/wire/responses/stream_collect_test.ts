import { assertEquals } from "../../helpers/assert.ts";
import type { StreamEvent } from "../../../src/model/mod.ts";
import {
  decodeResponse,
  decodeStream,
  encodeResponse,
  encodeStream,
} from "../../../src/wire/responses/mod.ts";
import { collect, framesOf, payloadsOf, run, sse } from "./helpers.ts";
import { sdkStream } from "./sdk.ts";

const CTX = { requestModel: "oa/gpt-5", now: 1_700_000_000 };

const EVENTS: StreamEvent[] = [
  { type: "start", id: "resp_c", model: "gpt-5", created: 1_741_000_001 },
  { type: "blockStart", index: 0, kind: "reasoning", family: "openai" },
  { type: "textDelta", index: 0, text: "Plan" },
  { type: "signatureDelta", index: 0, signature: "ENC" },
  { type: "blockEnd", index: 0 },
  { type: "blockStart", index: 1, kind: "text" },
  { type: "textDelta", index: 1, text: "Hello" },
  { type: "blockStart", index: 2, kind: "toolCall", id: "call_1", name: "f" },
  { type: "argumentsDelta", index: 2, json: '{"q":1}' },
  { type: "blockEnd", index: 1 },
  { type: "blockEnd", index: 2 },
  { type: "usage", usage: { inputTotal: 30, cacheRead: 10, cacheWrite: 0, output: 12, reasoning: 4 } },
  { type: "finish", finish: { unified: "tool_calls", raw: "tool_calls" } },
];

Deno.test("encodeStream() final response equals encodeResponse() of the collected stream", async () => {
  const payloads = await payloadsOf((await run(EVENTS, encodeStream(CTX))).join(""));
  const completed = payloads[payloads.length - 1];
  assertEquals(completed.type, "response.completed");
  assertEquals(completed.response, encodeResponse(collect(EVENTS), CTX));
});

Deno.test("an upstream stream decoded and re-encoded reads like the upstream in the openai SDK", async () => {
  const upstream = {
    id: "resp_u",
    object: "response",
    created_at: 1_741_000_002,
    model: "gpt-5",
    status: "completed",
    output: [
      {
        id: "rs_u",
        type: "reasoning",
        summary: [{ type: "summary_text", text: "Why" }],
        encrypted_content: "SECRET",
      },
      {
        id: "msg_u",
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "Because.", annotations: [] }],
      },
    ],
    usage: {
      input_tokens: 50,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 59,
    },
  };
  const rs = { id: "rs_u", type: "reasoning", summary: [] };
  const msg = { id: "msg_u", type: "message", status: "in_progress", role: "assistant", content: [] };
  const transcript = sse([
    { type: "response.created", response: { ...upstream, status: "in_progress", output: [], usage: null } },
    { type: "response.output_item.added", output_index: 0, item: rs },
    {
      type: "response.reasoning_summary_text.delta",
      item_id: "rs_u",
      output_index: 0,
      summary_index: 0,
      delta: "Why",
    },
    { type: "response.output_item.done", output_index: 0, item: upstream.output[0] },
    { type: "response.output_item.added", output_index: 1, item: msg },
    {
      type: "response.output_text.delta",
      item_id: "msg_u",
      output_index: 1,
      content_index: 0,
      delta: "Because.",
    },
    { type: "response.output_item.done", output_index: 1, item: upstream.output[1] },
    { type: "response.completed", response: upstream },
  ]);
  const neutral = await run(await framesOf(transcript), decodeStream());
  const collected = collect(neutral);
  const direct = decodeResponse(upstream);
  assertEquals(collected.usage, direct.usage);
  assertEquals(collected.finish, direct.finish);

  const reencoded = (await run(neutral, encodeStream(CTX))).join("");
  const viaSdk = await sdkStream(reencoded);
  assertEquals(viaSdk.output_text, "Because.");
  assertEquals(viaSdk.output[0].encrypted_content, "SECRET");
  assertEquals(viaSdk.output[0].summary, [{ type: "summary_text", text: "Why" }]);
  assertEquals(viaSdk.usage, upstream.usage);
});
