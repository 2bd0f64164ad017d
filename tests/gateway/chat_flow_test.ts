import OpenAI from "openai";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { chatChunk, chatCompletion, post, usageRows, waitForUsageRows } from "../helpers/chat_fixtures.ts";
import { CLIENT_WATCH_AFTER_MS } from "../../src/executors/call_upstream.ts";
import { WATCHDOG_TICK_MS } from "../../src/executors/deadline_watchdog.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { sse, startMockUpstream } from "../helpers/mock_upstream.ts";
import { waitFor } from "../helpers/wait.ts";

async function setup(extraYaml = "") {
  const mock = await startMockUpstream();
  const gw = await startTestGateway(
    chatProvidersYaml([{ id: "acct-a", prefix: "p", url: mock.url }], extraYaml),
  );
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "anything", maxRetries: 0 });
  return {
    mock,
    gw,
    client,
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await mock.close();
    },
  };
}

Deno.test("openai SDK: a non-stream chat completion round-trips with usage", async () => {
  await using t = await setup();
  t.mock.script({ json: chatCompletion("Hello there") });
  const answer = await t.client.chat.completions.create({
    model: "p/m1",
    messages: [{ role: "user", content: "hi" }],
  });
  assertEquals(answer.choices[0].message.content, "Hello there");
  assertEquals(answer.usage?.prompt_tokens, 10);
  const upstream = t.mock.requests[0];
  assertEquals(upstream.path, "/v1/chat/completions");
  assertEquals(upstream.body.model, "m1");
  assertEquals(upstream.headers.get("authorization"), "Bearer upstream-key-acct-a");
  const [row] = await usageRows(t.gw);
  assertEquals([row.status, row.input_tokens, row.output_tokens, row.provider_id, row.model], [
    200,
    10,
    5,
    "acct-a",
    "p/m1",
  ]);
});

Deno.test("openai SDK: streaming text and a tool call arrive intact; include_usage is requested", async () => {
  await using t = await setup();
  t.mock.script({
    chunks: sse(
      chatChunk({ role: "assistant", content: "Let me " }),
      chatChunk({ content: "check." }),
      chatChunk({
        tool_calls: [{
          index: 0,
          id: "call_1",
          type: "function",
          function: { name: "get_weather", arguments: "" },
        }],
      }),
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chatChunk({}, "tool_calls"),
      { ...chatChunk({}), choices: [], usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 } },
      "[DONE]",
    ),
  });
  const stream = await t.client.chat.completions.create({
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "weather?" }],
    tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
  });
  let text = "";
  let args = "";
  let finish = "";
  let usage = 0;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? "";
    args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "";
    finish = chunk.choices[0]?.finish_reason ?? finish;
    usage = chunk.usage?.total_tokens ?? usage;
  }
  assertEquals(text, "Let me check.");
  assertEquals(args, '{"city":"Paris"}');
  assertEquals(finish, "tool_calls");
  assertEquals(usage, 27);
  assertEquals((t.mock.requests[0].body.stream_options as { include_usage: boolean }).include_usage, true);
  const [row] = await usageRows(t.gw);
  assertEquals([row.status, row.input_tokens, row.output_tokens, row.streamed], [200, 20, 7, 1]);
});

Deno.test("fields the gateway does not know reach a chat upstream unchanged", async () => {
  await using t = await setup();
  t.mock.script({ json: chatCompletion("ok") });
  const body = {
    model: "p/m1",
    messages: [{ role: "user", content: "hi", name: "bob" }],
    response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "object" } } },
    seed: 42,
    metadata: { trace: "abc" },
    parallel_tool_calls: false,
    tools: [{ type: "function", function: { name: "f", parameters: { type: "object" }, strict: true } }],
    logit_bias: { "50256": -100 },
    user: "u-1",
  };
  assertEquals((await post(`${t.gw.url}/v1/chat/completions`, body)).status, 200);
  const sent = t.mock.requests[0].body;
  assertEquals({ ...sent, model: "p/m1" } as unknown, body);
});

Deno.test("passthrough repairs a sloppy upstream stream: separators, ids, filters, junk, finish, usage, [DONE]", async () => {
  await using t = await setup();
  t.mock.script({
    chunks: [
      `data: ${
        JSON.stringify({
          id: "x",
          choices: [{ index: 0, delta: { role: "assistant", content: "A" } }],
          prompt_filter_results: [],
        })
      }\n`,
      `data: <html>502 Bad Gateway</html>\n\n`,
      `data: ${
        JSON.stringify({
          id: "x",
          choices: [{ index: 0, delta: { content: "B", tool_calls: [] }, content_filter_results: {} }],
        })
      }\n\n`,
      `data: ${JSON.stringify({ id: "x", choices: [{ index: 0, delta: {} }] })}\n\n`,
      `data: ${
        JSON.stringify({
          id: "x",
          choices: [],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        })
      }\n\n`,
    ],
  });
  const response = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const text = await response.text();
  const events = text.split("\n\n").filter((e) => e !== "");
  assert(events.every((e) => e.startsWith("data: ")), text);
  assertEquals(events.at(-1), "data: [DONE]");
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
  assert(!text.includes("<html>"), "non-JSON data line must be dropped");
  assert(!text.includes("_filter_results"), "filter results must be stripped");
  assert(!text.includes('"tool_calls":[]'), "empty tool_calls must be dropped");
  for (const chunk of chunks) {
    assertEquals(chunk.object, "chat.completion.chunk");
    assert(typeof chunk.created === "number");
    assert(chunk.id.length >= 8 && chunk.id !== "x", `id ${chunk.id} should be repaired`);
  }
  assertEquals(new Set(chunks.map((c) => c.id)).size, 1, "one id for the whole stream");
  const finishChunk = chunks.find((c) => c.choices?.[0]?.finish_reason);
  assertEquals(finishChunk?.choices[0].finish_reason, "stop");
  assertEquals(chunks.map((c) => c.choices?.[0]?.delta?.content ?? "").join(""), "AB");
  assert(chunks.some((c) => c.usage?.total_tokens === 5), "usage must reach the client");
});

Deno.test("invalid bodies get clear errors in the chat-completions format", async () => {
  await using t = await setup();
  const cases: [string | unknown, number, string][] = [
    ["{not json", 400, "not valid JSON"],
    [{ model: "p/m1" }, 400, "messages"],
    [{ model: "p/m1", messages: "hi" }, 400, "messages"],
    [{ model: 5, messages: [{ role: "user", content: "x" }] }, 400, "model"],
    [{ model: "p/m1", messages: [{ role: "wizard", content: "x" }] }, 400, "role"],
    [{ model: "nope/m1", messages: [{ role: "user", content: "x" }] }, 404, "nope"],
  ];
  for (const [body, status, fragment] of cases) {
    const response = await post(`${t.gw.url}/v1/chat/completions`, body);
    const json = await response.json();
    assertEquals(response.status, status, JSON.stringify(json));
    assertEquals(typeof json.error.message, "string");
    assertStringIncludes(json.error.message, fragment);
    assert(!JSON.stringify(json).includes("    at "), "no stack traces");
  }
  assertEquals(t.mock.requests.length, 0);
});

Deno.test("a body over the size limit is refused with 413; a 10 MB invalid body gets a clear 400", async () => {
  await using t = await setup();
  const big = await post(`${t.gw.url}/v1/chat/completions`, "x".repeat(33 * 1024 * 1024));
  assertEquals(big.status, 413);
  assertStringIncludes((await big.json()).error.message, "larger than 32 MiB");
  const tenMb = await post(`${t.gw.url}/v1/chat/completions`, "{" + "a".repeat(10 * 1024 * 1024));
  assertEquals(tenMb.status, 400);
  assertStringIncludes((await tenMb.json()).error.message, "not valid JSON");
});

Deno.test("an upstream that answers HTML is a failure, not an empty 200", async () => {
  await using t = await setup();
  t.mock.script({ text: "<html><body>Welcome to nginx</body></html>", contentType: "text/html" });
  const response = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    messages: [{ role: "user", content: "x" }],
  });
  assertEquals(response.status, 503);
  assertStringIncludes((await response.json()).detail, "All providers exhausted: acct-a:");
  const [row] = await usageRows(t.gw);
  assertEquals(row.status, 502);
});

Deno.test("garbage SSE with no content falls back instead of answering empty", async () => {
  await using t = await setup();
  t.mock.script({ chunks: ["data: nonsense\n\n", "data: {also not json\n\n"] });
  const response = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "x" }],
  });
  assertEquals(response.status, 503);
  assertStringIncludes((await response.json()).detail, "ended without any content");
});

Deno.test("an upstream that breaks mid-stream ends the client's stream with an error chunk and a failed usage row", async () => {
  await using t = await setup();
  t.mock.script({
    chunks: sse(chatChunk({ role: "assistant", content: "partial " }), chatChunk({ content: "answ" })),
    breakAfter: true,
    delayMs: 30,
  });
  const response = await post(`${t.gw.url}/v1/chat/completions`, {
    model: "p/m1",
    stream: true,
    messages: [{ role: "user", content: "x" }],
  });
  assertEquals(response.status, 200);
  const events = (await response.text()).split("\n\n").filter((e) => e.startsWith("data: "))
    .map((e) => e.slice(6));
  assertStringIncludes(events[0], "partial ");
  assertEquals(events.at(-1), "[DONE]");
  const error = JSON.parse(events.at(-2)!).error;
  assertStringIncludes(error.message, "upstream stream broke");
  const rows = await waitForUsageRows(t.gw);
  assertEquals(rows.length, 1);
  assertEquals(rows[0].status, 502);
  assertStringIncludes(String(rows[0].error), "upstream stream broke");
  assertEquals(t.mock.requests.length, 1, "no retry after the first byte");
});

Deno.test("a client disconnect cancels the upstream stream", async () => {
  await using t = await setup();
  let upstreamCancelled = false;
  t.mock.script({
    handler: () => {
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 20));
          c.enqueue(
            new TextEncoder().encode(`data: ${JSON.stringify(chatChunk({ content: `t${n++} ` }))}\n\n`),
          );
        },
        cancel() {
          upstreamCancelled = true;
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  const controller = new AbortController();
  const response = await fetch(`${t.gw.url}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "p/m1", stream: true, messages: [{ role: "user", content: "x" }] }),
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.cancel().catch(() => {});
  await waitFor(() => upstreamCancelled, { what: "the upstream body cancelled" });
  const rows = await waitForUsageRows(t.gw);
  assertEquals(rows[0]?.status, 499);
});

Deno.test("a client disconnect cancels a non-stream upstream call that is still waiting", async () => {
  await using t = await setup();
  t.mock.script({ hang: true });
  const controller = new AbortController();
  const pending = fetch(`${t.gw.url}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "x" }] }),
    signal: controller.signal,
  }).catch(() => null);
  await waitFor(() => t.mock.requests.length === 1, { what: "the upstream call" });
  // Lets the call run long enough to be watched (CLIENT_WATCH_AFTER_MS, checked each watchdog tick), so
  // the disconnect arrives through the listener. Not synchronisation: a disconnect seen earlier is
  // found when the watch starts, and cancels the call the same way.
  await new Promise((r) => setTimeout(r, CLIENT_WATCH_AFTER_MS + 2 * WATCHDOG_TICK_MS));
  controller.abort();
  await pending;
  await waitFor(() => t.mock.cancelledHangs() === 1, { what: "the upstream call cancelled" });
  const rows = await waitForUsageRows(t.gw);
  assertEquals(rows.map((r) => r.status), [499]);
});

Deno.test("a chunked request body without content-length is read and answered", async () => {
  await using t = await setup();
  t.mock.script({ json: chatCompletion("chunked ok") });
  const text = JSON.stringify({ model: "p/m1", messages: [{ role: "user", content: "hi" }] });
  const body = ReadableStream.from(
    [text.slice(0, 10), text.slice(10)].map((s) => new TextEncoder().encode(s)),
  );
  const response = await fetch(`${t.gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  assertEquals(response.status, 200);
  assertEquals((await response.json()).choices[0].message.content, "chunked ok");
});
