import { frameText } from "../../src/wire/framing/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { startE2E, textAnswer, toolAnswer } from "./harness.ts";
import {
  COMPACTION_PROMPT,
  compactionResponseObject,
  compactionStream,
  GATEWAY_COMPACTION_PREFIX,
  SUMMARY_HEADING,
} from "../../src/wire/responses/compaction.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";

const HISTORY = [
  { role: "user", content: "Fix the failing parser test" },
  { type: "function_call", call_id: "call_1", name: "exec_command", arguments: '{"cmd":"deno test"}' },
  { type: "function_call_output", call_id: "call_1", output: "parser_test.ts: expected 3, got 4" },
  {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: "The off-by-one is in lex()." }],
  },
];

const TRIGGER = { type: "compaction_trigger" };

async function post(url: string, path: string, body: unknown): Promise<Response> {
  return await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

Deno.test("POST /v1/responses/compact through a chat upstream answers the user messages and exactly one compaction item", async () => {
  await using e2e = await startE2E({
    summary: textAnswer("SUMMARY: off-by-one in lex(), parser_test.ts fails"),
  });
  const res = await post(e2e.url, "/v1/responses/compact", { model: "up_chat/summary", input: HISTORY });
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.object, "response.compaction");
  const compactions = body.output.filter((item: { type: string }) => item.type === "compaction");
  assertEquals(compactions.length, 1);
  assert(compactions[0].encrypted_content.startsWith(GATEWAY_COMPACTION_PREFIX));
  assertEquals(body.output[0].role, "user");
  assertEquals(body.usage.input_tokens, 12);
  // The upstream was asked for a summary of the whole history, without tools.
  const asked = JSON.stringify(e2e.requests.at(-1)!.body);
  assertStringIncludes(asked, COMPACTION_PROMPT.slice(0, 40));
  assertStringIncludes(asked, "expected 3, got 4");

  // The next turn carries the compaction; any upstream gets the summary back as text.
  const next = await post(e2e.url, "/v1/responses", {
    model: "up_messages/summary",
    input: [...body.output, { role: "user", content: "continue" }],
  });
  assertEquals(next.status, 200);
  const upstream = JSON.stringify(e2e.requests.at(-1)!.body);
  assertStringIncludes(upstream, SUMMARY_HEADING);
  assertStringIncludes(upstream, "SUMMARY: off-by-one in lex()");
});

Deno.test("a compaction_trigger on /v1/responses through a generate-content upstream streams one compaction item and completes", async () => {
  await using e2e = await startE2E({ summary: textAnswer("SUMMARY: done so far") });
  const res = await post(e2e.url, "/v1/responses", {
    model: "up_generate/summary",
    stream: true,
    input: [...HISTORY, { type: "compaction_trigger" }],
  });
  assertEquals(res.status, 200);
  const text = await res.text();
  const events = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
  assertEquals(events.at(-1).type, "response.completed");
  const output = events.at(-1).response.output;
  assertEquals(output.length, 1);
  assertEquals(output[0].type, "compaction");
  assert(!JSON.stringify(e2e.requests.at(-1)!.body).includes("compaction_trigger"));
});

/** The Responses events of a streamed answer, in order. */
function sseEvents(text: string): { type: string; response?: { output: { type: string }[] } }[] {
  return text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
}

Deno.test("a compaction_trigger routed to a Responses upstream that compacts passes through: its one compaction item reaches the client", async () => {
  await using mock = { ...(await startMockUpstream()), [Symbol.asyncDispose]: () => mock.close() };
  const item = { id: "cmp_native", type: "compaction", encrypted_content: "opaque-native-state" };
  const meta = { id: "resp_native", model: "m", createdAt: 1_700_000_123, usage: { input_tokens: 40 } };
  mock.script({
    handler: (request) =>
      request.body.stream === true
        ? new Response(compactionStream(meta, item).map((frame) => frameText(frame, "sse")).join(""), {
          headers: { "content-type": "text/event-stream" },
        })
        : Response.json(compactionResponseObject(meta, item)),
  });
  const gw = await startTestGateway(
    `providers:\n  - id: r-1\n    prefix: r\n    api_type: responses_native\n    base_url: ${mock.url}/v1\n` +
      `    api_key: k\n    models: [m]\n`,
  );
  try {
    const json = await post(gw.url, "/v1/responses", { model: "r/m", input: [...HISTORY, TRIGGER] });
    assertEquals(json.status, 200);
    const answer = await json.json();
    assertEquals(answer.output, [item]);
    assertEquals(answer.model, "r/m", "the model the client asked for");
    const streamed = await post(gw.url, "/v1/responses", {
      model: "r/m",
      stream: true,
      input: [...HISTORY, TRIGGER],
    });
    assertEquals(streamed.status, 200);
    const events = sseEvents(await streamed.text());
    assertEquals(events.at(-1)!.type, "response.completed");
    assertEquals(events.at(-1)!.response!.output, [item]);
    // One upstream call each, with the trigger as Codex sent it: nothing was summarised.
    assertEquals(mock.requests.length, 2);
    for (const request of mock.requests) {
      const upstream = JSON.stringify(request.body);
      assertStringIncludes(upstream, "compaction_trigger");
      assert(!upstream.includes(COMPACTION_PROMPT.slice(0, 40)));
    }
  } finally {
    await gw.stop();
  }
});

Deno.test("a compaction_trigger routed to a Responses upstream that answers with plain text gets exactly one compaction item written by the gateway", async () => {
  // The harness's Responses upstream answers the trigger like any request: with text, no compaction item.
  await using e2e = await startE2E({ summary: textAnswer("SUMMARY: inline fallback") });
  for (const stream of [false, true]) {
    const before = e2e.requests.length;
    const res = await post(e2e.url, "/v1/responses", {
      model: "up_responses/summary",
      stream,
      input: [...HISTORY, TRIGGER],
    });
    assertEquals(res.status, 200);
    const text = await res.text();
    const output = stream ? sseEvents(text).at(-1)!.response!.output : JSON.parse(text).output;
    assertEquals(output.length, 1, text.slice(0, 500));
    const [item] = output as { type: string; encrypted_content: string }[];
    assertEquals(item.type, "compaction");
    assert(item.encrypted_content.startsWith(GATEWAY_COMPACTION_PREFIX));
    assertStringIncludes(
      atob(item.encrypted_content.slice(GATEWAY_COMPACTION_PREFIX.length)),
      "inline fallback",
    );
    // First the trigger as sent (the upstream could have compacted), then the summary request.
    const [native, summary] = e2e.requests.slice(before).map((r) => JSON.stringify(r.body));
    assertStringIncludes(native, "compaction_trigger");
    assert(!summary.includes("compaction_trigger"));
    assertStringIncludes(summary, COMPACTION_PROMPT.slice(0, 40));
  }
});

Deno.test("compaction answers 501 responses_compact_not_supported when the model writes no summary text, and upstream errors keep their status", async () => {
  await using e2e = await startE2E({
    silent: toolAnswer([["exec_command", '{"cmd":"ls"}', "call_x"]]),
    broken: { status: 400 },
  });
  const res = await post(e2e.url, "/v1/responses/compact", { model: "up_chat/silent", input: HISTORY });
  assertEquals(res.status, 501);
  const body = await res.json();
  assertEquals(body.error.code, "responses_compact_not_supported");
  const bad = await post(e2e.url, "/v1/responses/compact", { model: "up_chat/broken", input: HISTORY });
  assertEquals(bad.status, 400);
  assert((await bad.json()).error.message.length > 0);
  const invalid = await post(e2e.url, "/v1/responses/compact", { input: HISTORY });
  assertEquals(invalid.status, 400);
  assertStringIncludes((await invalid.json()).error.message, "model");
});

Deno.test("POST /v1/responses/compact routed to a Responses upstream lets it compact natively, and falls back to a summary when it cannot", async () => {
  await using mock = { ...(await startMockUpstream()), [Symbol.asyncDispose]: () => mock.close() };
  mock.script({
    handler: () => {
      const item = { id: "cmp_native", type: "compaction", encrypted_content: "opaque-native-state" };
      const meta = { id: "resp_native", model: "m", createdAt: 1_700_000_123, usage: { input_tokens: 40 } };
      return new Response(compactionStream(meta, item).map((frame) => frameText(frame, "sse")).join(""), {
        headers: { "content-type": "text/event-stream" },
      });
    },
  });
  const gw = await startTestGateway(
    `providers:\n  - id: r-1\n    prefix: r\n    api_type: responses_native\n    base_url: ${mock.url}/v1\n` +
      `    api_key: k\n    models: [m]\n`,
  );
  try {
    const res = await post(gw.url, "/v1/responses/compact", { model: "r/m", input: HISTORY });
    assertEquals(res.status, 200);
    const body = await res.json();
    assertEquals(body.output.at(-1), {
      id: "cmp_native",
      type: "compaction",
      encrypted_content: "opaque-native-state",
    });
    assertEquals(body.created_at, 1_700_000_123);
    assertStringIncludes(JSON.stringify(mock.requests.at(-1)!.body), "compaction_trigger");
  } finally {
    await gw.stop();
  }

  // The harness's Responses upstream answers the trigger with plain text: the gateway then writes the summary.
  await using e2e = await startE2E({ summary: textAnswer("SUMMARY: fallback") });
  const res = await post(e2e.url, "/v1/responses/compact", { model: "up_responses/summary", input: HISTORY });
  assertEquals(res.status, 200);
  const body = await res.json();
  const item = body.output.at(-1);
  assertEquals(item.type, "compaction");
  assert(item.encrypted_content.startsWith(GATEWAY_COMPACTION_PREFIX));
  assertEquals(e2e.requests.length, 2);
  assertStringIncludes(JSON.stringify(e2e.requests[1].body), COMPACTION_PROMPT.slice(0, 40));
});

Deno.test("a compaction that needs the summary path is one request: one request-log row with the client's body, the summary in its answer", async () => {
  // A Responses upstream that answers the trigger with plain text: a native try, then the summary call.
  await using e2e = await startE2E({ summary: textAnswer("SUMMARY: one row") });
  const control = e2e.gw.runtime.control;
  control.store.settings.set("server_request_logging", "true");
  control.reload();
  const res = await post(e2e.url, "/v1/responses/compact", { model: "up_responses/summary", input: HISTORY });
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(e2e.requests.length, 2, "the native try and the summary call both reached the upstream");
  e2e.gw.runtime.writer.flush();
  const rows = control.store.requestLogs.all();
  assertEquals(rows.length, 1);
  const [row] = rows;
  assertEquals([row.status, row.model, row.streamed], [200, "up_responses/summary", false]);
  // The row is the client's request and the answer it got, not the gateway's own summary call.
  assert(!row.requestBody.includes(COMPACTION_PROMPT.slice(0, 40)));
  assertEquals(JSON.parse(row.responseBody), body);
});
