import { GatewayError } from "../../../src/model/mod.ts";
import type { NeutralResponse } from "../../../src/model/mod.ts";
import { localRunnerCodec } from "../../../src/wire/local_runner/mod.ts";
import { syntheticToolId } from "../../../src/wire/shared/mod.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

const CHAT = { requestModel: "local/llama3", endpoint: "chat", now: 1_700_000_000 };
const GENERATE = { ...CHAT, endpoint: "generate" };

const answer = {
  model: "llama3.1:8b",
  created_at: "2025-06-01T10:00:00.123456Z",
  message: {
    role: "assistant",
    content: "",
    thinking: "Need the weather.",
    tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }],
  },
  done: true,
  done_reason: "stop",
  total_duration: 5_000_000,
  load_duration: 100,
  prompt_eval_count: 42,
  prompt_eval_duration: 200,
  eval_count: 17,
  eval_duration: 300,
};

Deno.test("decodeResponse() maps message parts, tool calls with synthesized ids, usage and finish", () => {
  const response = localRunnerCodec.decodeResponse(answer);
  assertEquals(response.model, "llama3.1:8b");
  assertEquals(response.created, Math.floor(Date.parse("2025-06-01T10:00:00Z") / 1000));
  assertEquals(response.parts, [
    { kind: "reasoning", text: "Need the weather." },
    {
      kind: "toolCall",
      id: syntheticToolId(response.id, 0, "get_weather"),
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    },
  ]);
  assertEquals(response.finish, { unified: "tool_calls", raw: "stop" });
  assertEquals(response.usage, { inputTotal: 42, cacheRead: 0, cacheWrite: 0, output: 17, reasoning: 0 });
  assertEquals(localRunnerCodec.decodeResponse(answer).id, response.id);
});

Deno.test("decodeResponse() maps done_reason and keeps the raw value", () => {
  const finish = (done_reason?: string) =>
    localRunnerCodec.decodeResponse({
      model: "m",
      message: { role: "assistant", content: "x" },
      done: true,
      done_reason,
    })
      .finish;
  assertEquals(finish("stop"), { unified: "stop", raw: "stop" });
  assertEquals(finish("length"), { unified: "length", raw: "length" });
  assertEquals(finish("unload"), { unified: "other", raw: "unload" });
  assertEquals(finish(undefined), { unified: "stop", raw: null });
});

Deno.test("decodeResponse() turns an error body or a foreign body into a 502 upstream error", () => {
  const error = assertThrows(
    () => localRunnerCodec.decodeResponse({ error: 'model "nope" not found, try pulling it first' }),
    GatewayError,
    'model "nope" not found',
  );
  assertEquals([error.status, error.kind], [502, "upstream"]);
  const foreign = assertThrows(() => localRunnerCodec.decodeResponse({ choices: [] }), GatewayError);
  assertEquals([foreign.status, foreign.kind], [502, "upstream"]);
  assertThrows(() => localRunnerCodec.decodeResponse("text"), GatewayError);
});

const neutral: NeutralResponse = {
  id: "msg_1",
  model: "claude-x",
  parts: [
    { kind: "reasoning", text: "Hmm." },
    { kind: "text", text: "Hello" },
    { kind: "text", text: " there" },
    { kind: "toolCall", id: "toolu_1", name: "f", arguments: '{"a":1}' },
  ],
  finish: { unified: "tool_calls", raw: "tool_use" },
  usage: { inputTotal: 10, cacheRead: 4, cacheWrite: 0, output: 5, reasoning: 0 },
};

Deno.test("encodeResponse() writes the /api/chat answer shape", () => {
  assertEquals(localRunnerCodec.encodeResponse(neutral, CHAT), {
    model: "local/llama3",
    created_at: "2023-11-14T22:13:20.000Z",
    message: {
      role: "assistant",
      content: "Hello there",
      thinking: "Hmm.",
      tool_calls: [{ function: { name: "f", arguments: { a: 1 } } }],
    },
    done: true,
    done_reason: "stop",
    total_duration: 0,
    load_duration: 0,
    prompt_eval_count: 10,
    prompt_eval_duration: 0,
    eval_count: 5,
    eval_duration: 0,
  });
});

Deno.test("encodeResponse() writes the /api/generate answer shape with response, thinking and context", () => {
  assertEquals(localRunnerCodec.encodeResponse(neutral, GENERATE), {
    model: "local/llama3",
    created_at: "2023-11-14T22:13:20.000Z",
    response: "Hello there",
    thinking: "Hmm.",
    done: true,
    done_reason: "stop",
    context: [],
    total_duration: 0,
    load_duration: 0,
    prompt_eval_count: 10,
    prompt_eval_duration: 0,
    eval_count: 5,
    eval_duration: 0,
  });
});

Deno.test("encodeResponse() maps finish reasons to done_reason", () => {
  const reason = (unified: NeutralResponse["finish"]["unified"], raw: string | null) =>
    (localRunnerCodec.encodeResponse({ ...neutral, finish: { unified, raw } }, CHAT) as {
      done_reason: string;
    })
      .done_reason;
  assertEquals(reason("stop", "end_turn"), "stop");
  assertEquals(reason("tool_calls", "tool_use"), "stop");
  assertEquals(reason("length", "max_tokens"), "length");
  assertEquals(reason("content_filter", "SAFETY"), "SAFETY");
  assertEquals(reason("other", null), "stop");
});

Deno.test("a runner answer survives decodeResponse → encodeResponse with its real timings", () => {
  const plain = { ...answer, message: { role: "assistant", content: "Hi", thinking: "t" } };
  const encoded = localRunnerCodec.encodeResponse(localRunnerCodec.decodeResponse(plain), {
    ...CHAT,
    requestModel: "llama3.1:8b",
  });
  assertEquals(encoded, { ...plain, created_at: "2023-11-14T22:13:20.000Z" });
});
