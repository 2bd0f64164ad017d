import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GatewayError, type NeutralResponse } from "../../../src/model/mod.ts";
import { decodeRequest, decodeResponse, encodeResponse } from "../../../src/wire/responses/mod.ts";
import { sdkCreate } from "./sdk.ts";

const CTX = { requestModel: "oa/gpt-5", now: 1_700_000_000 };

const UPSTREAM = {
  id: "resp_abc",
  object: "response",
  created_at: 1_741_000_000,
  status: "completed",
  model: "gpt-5-2025-08-07",
  output: [
    {
      id: "rs_1",
      type: "reasoning",
      summary: [{ type: "summary_text", text: "Plan" }, { type: "summary_text", text: "Act" }],
      encrypted_content: "ENC==",
    },
    {
      id: "msg_1",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: "Calling tools.", annotations: [] }],
    },
    { id: "fc_1", type: "function_call", status: "completed", call_id: "call_1", name: "a", arguments: "{}" },
    { id: "ws_1", type: "web_search_call", status: "completed" },
  ],
  usage: {
    input_tokens: 1200,
    input_tokens_details: { cached_tokens: 1000 },
    output_tokens: 300,
    output_tokens_details: { reasoning_tokens: 200 },
    total_tokens: 1500,
  },
  service_tier: "default",
  error: null,
  incomplete_details: null,
};

Deno.test("decodeResponse() maps output items, usage and finish", () => {
  const response = decodeResponse(UPSTREAM);
  assertEquals(response.id, "resp_abc");
  assertEquals(response.model, "gpt-5-2025-08-07");
  assertEquals(response.created, 1_741_000_000);
  assertEquals(response.parts, [
    {
      kind: "reasoning",
      text: "Plan\n\nAct",
      family: "openai",
      redactedData: "ENC==",
      extra: { format: "responses", fields: { id: "rs_1" } },
    },
    { kind: "text", text: "Calling tools." },
    {
      kind: "toolCall",
      id: "call_1",
      name: "a",
      arguments: "{}",
      extra: { format: "responses", fields: { id: "fc_1" } },
    },
  ]);
  assertEquals(response.usage, {
    inputTotal: 1200,
    cacheRead: 1000,
    cacheWrite: 0,
    output: 300,
    reasoning: 200,
  });
  assertEquals(response.finish, { unified: "tool_calls", raw: "completed" });
  assertEquals(response.extra, { format: "responses", fields: { service_tier: "default" } });
});

Deno.test("decodeResponse() maps status and incomplete reasons to finish reasons, raw kept", () => {
  const finish = (status: string, reason?: string) =>
    decodeResponse({
      id: "r",
      model: "m",
      status,
      output: [],
      incomplete_details: reason ? { reason } : null,
    }).finish;
  assertEquals(finish("completed"), { unified: "stop", raw: "completed" });
  assertEquals(finish("incomplete", "max_output_tokens"), { unified: "length", raw: "max_output_tokens" });
  assertEquals(finish("incomplete", "content_filter"), { unified: "content_filter", raw: "content_filter" });
  assertEquals(finish("failed"), { unified: "error", raw: "failed" });
  assertEquals(finish("cancelled"), { unified: "other", raw: "cancelled" });
});

Deno.test("decodeResponse() reads refusals as text", () => {
  const response = decodeResponse({
    id: "r",
    model: "m",
    status: "completed",
    output: [{ type: "message", role: "assistant", content: [{ type: "refusal", refusal: "I can't." }] }],
  });
  assertEquals(response.parts, [{ kind: "text", text: "I can't." }]);
});

Deno.test("decodeResponse() rejects error bodies and non-responses with a 502", () => {
  for (const body of [{ error: { message: "boom", code: "server_error" } }, { choices: [] }, "text", null]) {
    const error = assertThrows(() => decodeResponse(body), GatewayError);
    assertEquals([error.status, error.kind], [502, "upstream"]);
  }
  assertThrows(() => decodeResponse({ error: { message: "boom" } }), GatewayError, "boom");
});

const NEUTRAL: NeutralResponse = {
  id: "chatcmpl-xyz",
  model: "gpt-5",
  parts: [
    { kind: "reasoning", text: "think", family: "openai", redactedData: "ENC" },
    { kind: "text", text: "Hello " },
    { kind: "text", text: "world" },
    { kind: "toolCall", id: "call_9", name: "f", arguments: '{"a":1}' },
  ],
  finish: { unified: "tool_calls", raw: "tool_calls" },
  usage: { inputTotal: 10, cacheRead: 4, cacheWrite: 0, output: 5, reasoning: 2 },
};

Deno.test("encodeResponse() writes a full response object with deterministic item ids", () => {
  const body = encodeResponse(NEUTRAL, CTX);
  const again = encodeResponse(NEUTRAL, CTX);
  assertEquals(body, again);
  const { output, ...rest } = body as { output: Record<string, unknown>[] } & Record<string, unknown>;
  assertEquals(rest.id, "resp_chatcmpl-xyz");
  assertEquals(rest.object, "response");
  assertEquals(rest.created_at, CTX.now);
  assertEquals(rest.status, "completed");
  assertEquals(rest.model, CTX.requestModel, "the model id the client asked for");
  assertEquals(rest.error, null);
  assertEquals(rest.incomplete_details, null);
  assertEquals(rest.instructions, null);
  assertEquals(rest.parallel_tool_calls, true);
  assertEquals(rest.tool_choice, "auto");
  assertEquals(rest.tools, []);
  assertEquals(rest.usage, {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 4 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 2 },
    total_tokens: 15,
  });
  assertEquals(output.map((o) => [o.type, String(o.id).split("_")[0]]), [
    ["reasoning", "rs"],
    ["message", "msg"],
    ["message", "msg"],
    ["function_call", "fc"],
  ]);
  assertEquals(output[0].encrypted_content, "ENC");
  assertEquals(output[0].summary, [{ type: "summary_text", text: "think" }]);
  assertEquals(output[1].content, [{ type: "output_text", text: "Hello ", annotations: [] }]);
  assertEquals(output[3], {
    id: output[3].id,
    type: "function_call",
    status: "completed",
    call_id: "call_9",
    name: "f",
    arguments: '{"a":1}',
  });
  assertEquals(new Set(output.map((o) => o.id)).size, 4);
});

Deno.test("encodeResponse() reports length as incomplete with max_output_tokens", () => {
  const body = encodeResponse(
    { ...NEUTRAL, finish: { unified: "length", raw: "max_tokens" } },
    CTX,
  ) as Record<
    string,
    unknown
  >;
  assertEquals(body.status, "incomplete");
  assertEquals(body.incomplete_details, { reason: "max_output_tokens" });
});

Deno.test("encodeResponse() wraps other families' signed reasoning in encrypted_content, and the request decoder unwraps it", () => {
  const parts = [
    { kind: "reasoning", text: "hm", signature: "anthropic-sig", family: "anthropic" },
    { kind: "reasoning", text: "", redactedData: "anthropic-redacted", family: "anthropic" },
  ] as const;
  const body = encodeResponse({ ...NEUTRAL, parts }, CTX) as { output: Record<string, unknown>[] };
  assertEquals(body.output.length, 2);
  for (const item of body.output) {
    // Never another family's raw token: OpenAI would reject it as its own encrypted reasoning.
    assert(String(item.encrypted_content).startsWith("gwr1."), String(item.encrypted_content));
  }
  const replayed = decodeRequest(
    { model: "m", input: [{ role: "user", content: "hi" }, ...body.output] },
    {},
  );
  const reasoning = replayed.messages.flatMap((m) => m.parts).filter((p) => p.kind === "reasoning");
  assertEquals(reasoning.map((r) => [r.family, r.signature, r.redactedData]), [
    ["anthropic", "anthropic-sig", undefined],
    ["anthropic", undefined, "anthropic-redacted"],
  ]);
});

Deno.test("decodeResponse() → encodeResponse() keeps usage, items and same-format extra fields", () => {
  const body = encodeResponse(decodeResponse(UPSTREAM), CTX) as Record<string, unknown>;
  assertEquals(body.usage, UPSTREAM.usage);
  assertEquals(body.service_tier, "default");
  assertEquals(body.created_at, UPSTREAM.created_at);
  assertEquals(body.id, "resp_abc");
  const output = body.output as Record<string, unknown>[];
  assertEquals(output.map((o) => o.type), ["reasoning", "message", "function_call"]);
  assertEquals(output[0].encrypted_content, "ENC==");
});

Deno.test("encodeResponse() output is read by the openai SDK, which derives output_text", async () => {
  const response = await sdkCreate(encodeResponse(NEUTRAL, CTX));
  assertEquals(response.output_text, "Hello world");
  assertEquals(response.status, "completed");
});
