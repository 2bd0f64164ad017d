import type { StreamEvent } from "../../../src/model/mod.ts";
import { localRunnerCodec } from "../../../src/wire/local_runner/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { collect, frames, pipe } from "./stream_helpers.ts";

const CHAT = { requestModel: "local/qwen3", endpoint: "chat", now: 1_700_000_000 };
const GENERATE = { ...CHAT, endpoint: "generate" };

const events: StreamEvent[] = [
  { type: "start", id: "msg_1", model: "upstream-model" },
  { type: "blockStart", index: 0, kind: "reasoning" },
  { type: "textDelta", index: 0, text: "Think" },
  { type: "signatureDelta", index: 0, signature: "sig" },
  { type: "blockEnd", index: 0 },
  { type: "blockStart", index: 1, kind: "text" },
  { type: "textDelta", index: 1, text: "Hel" },
  { type: "textDelta", index: 1, text: "" },
  { type: "textDelta", index: 1, text: "lo" },
  { type: "blockEnd", index: 1 },
  { type: "blockStart", index: 2, kind: "toolCall", id: "toolu_1", name: "get_weather" },
  { type: "argumentsDelta", index: 2, json: '{"city":' },
  { type: "argumentsDelta", index: 2, json: '"Paris"}' },
  { type: "blockEnd", index: 2 },
  { type: "finish", finish: { unified: "tool_calls", raw: "tool_use" } },
  { type: "usage", usage: { inputTotal: 30, cacheRead: 0, cacheWrite: 0, output: 12, reasoning: 0 } },
];

const encode = async (input: readonly StreamEvent[], ctx = CHAT) =>
  (await pipe(input, localRunnerCodec.encodeStream(ctx))).join("");

const TIME = `"model":"local/qwen3","created_at":"2023-11-14T22:13:20.000Z"`;
const COUNTS =
  `"total_duration":0,"load_duration":0,"prompt_eval_count":30,"prompt_eval_duration":0,"eval_count":12,"eval_duration":0`;

Deno.test("encodeStream() writes golden NDJSON bytes for a chat client", async () => {
  assertEquals(
    await encode(events),
    [
      `{${TIME},"message":{"role":"assistant","content":"","thinking":"Think"},"done":false}`,
      `{${TIME},"message":{"role":"assistant","content":"Hel"},"done":false}`,
      `{${TIME},"message":{"role":"assistant","content":"lo"},"done":false}`,
      `{${TIME},"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}`,
      `{${TIME},"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop",${COUNTS}}`,
      "",
    ].join("\n"),
  );
});

Deno.test("encodeStream() writes golden NDJSON bytes for a generate client", async () => {
  assertEquals(
    await encode(events, GENERATE),
    [
      `{${TIME},"response":"","thinking":"Think","done":false}`,
      `{${TIME},"response":"Hel","done":false}`,
      `{${TIME},"response":"lo","done":false}`,
      `{${TIME},"response":"","done":true,"done_reason":"stop","context":[],${COUNTS}}`,
      "",
    ].join("\n"),
  );
});

Deno.test("encodeStream() maps a length finish and still writes the done line when no finish came", async () => {
  const text: StreamEvent[] = [
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "x" },
  ];
  const cut = (await encode(text)).trim().split("\n");
  assertEquals(JSON.parse(cut.at(-1)!).done, true);
  assertEquals(JSON.parse(cut.at(-1)!).done_reason, "stop");
  const long = await encode([...text, { type: "finish", finish: { unified: "length", raw: "max_tokens" } }]);
  assertEquals(JSON.parse(long.trim().split("\n").at(-1)!).done_reason, "length");
});

Deno.test("encodeStream() ends with an error line and no done line on an error event", async () => {
  const out = await encode([
    { type: "blockStart", index: 0, kind: "text" },
    { type: "textDelta", index: 0, text: "par" },
    { type: "error", status: 502, kind: "upstream", message: "upstream went away" },
    { type: "textDelta", index: 0, text: "tial" },
  ]);
  assertEquals(out.split("\n").slice(1), ['{"error":"upstream went away"}', ""]);
});

Deno.test("encodeStream() delivers a tool call whose block never closed", async () => {
  const out = await encode([
    { type: "blockStart", index: 0, kind: "toolCall", id: "c", name: "f" },
    { type: "argumentsDelta", index: 0, json: '{"a":1}' },
  ]);
  assertEquals(JSON.parse(out.split("\n")[0]).message.tool_calls, [{
    function: { name: "f", arguments: { a: 1 } },
  }]);
});

Deno.test("encodeStream() output decodes and collects to what encodeResponse writes", async () => {
  const wire = await encode(events);
  const decoded = await pipe(frames(...wire.trim().split("\n")), localRunnerCodec.decodeStream());
  const collected = collect(decoded);
  assertEquals(
    localRunnerCodec.encodeResponse(collected, CHAT),
    localRunnerCodec.encodeResponse(collect(events), CHAT),
  );
  assertEquals(collected.finish, { unified: "tool_calls", raw: "stop" });
  assertEquals(collected.usage.inputTotal, 30);
});
