/**
 * A running gateway exporting to a real Jaeger (issue 29's checks): a request that falls back shows one
 * request span with two attempt children carrying their attributes, the client's `traceparent` is
 * continued, each upstream receives the `traceparent` of its attempt span, and a stream's span has its
 * first-token event and usage. The client is the real OpenAI SDK; upstreams are mocks written here.
 */
import OpenAI from "openai";
import { assert, assertEquals } from "../helpers/assert.ts";
import { chatChunk, chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, sse, startMockUpstream } from "../helpers/mock_upstream.ts";
import {
  type JaegerSpan,
  type JaegerTrace,
  type OtlpBackend,
  otlpBackendSkip,
  startOtlpBackend,
  tagValue,
} from "../helpers/otlp_backend.ts";

const CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";

interface Setup {
  backend: OtlpBackend;
  first: MockUpstream;
  second: MockUpstream;
  gw: TestGateway;
  client: OpenAI;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Jaeger, two accounts in one combo, and a gateway exporting to Jaeger through the OTEL_* variables. */
async function setup(service: string, telemetryYaml = ""): Promise<Setup> {
  const backend = await startOtlpBackend();
  const first = await startMockUpstream();
  const second = await startMockUpstream();
  const gw = await startTestGateway(
    chatProvidersYaml(
      [
        { id: "acct-a", prefix: "a", url: first.url },
        { id: "acct-b", prefix: "b", url: second.url },
      ],
      `combos:\n  - name: smart\n    models: [a/m1, b/m1]\n` +
        `pricing:\n  m1:\n    input_per_mtok: 1000\n    output_per_mtok: 1000\ntelemetry:\n  schedule_delay_ms: 20\n${telemetryYaml}`,
    ),
    { env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: backend.tracesUrl, OTEL_SERVICE_NAME: service } },
  );
  return {
    backend,
    first,
    second,
    gw,
    client: new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "unused", maxRetries: 0 }),
    async [Symbol.asyncDispose]() {
      await gw.stop();
      await first.close();
      await second.close();
      await backend.stop();
    },
  };
}

function tag(span: JaegerSpan, key: string) {
  return tagValue(span.tags, key);
}

function parentOf(span: JaegerSpan): string | undefined {
  return span.references.find((r) => r.refType === "CHILD_OF")?.spanID;
}

/** The request span (the one whose parent is not in the trace) and its attempt children by index. */
function split(trace: JaegerTrace): { request: JaegerSpan; attempts: JaegerSpan[] } {
  const ids = new Set(trace.spans.map((s) => s.spanID));
  const roots = trace.spans.filter((s) => !ids.has(parentOf(s) ?? ""));
  assertEquals(roots.length, 1, "one request span");
  const request = roots[0];
  const attempts = trace.spans.filter((s) => parentOf(s) === request.spanID)
    .sort((x, y) => Number(tag(x, "gateway.attempt.index")) - Number(tag(y, "gateway.attempt.index")));
  return { request, attempts };
}

Deno.test({
  name: "a fallback exports one request span with two attempt children, continuing the client's trace",
  ignore: otlpBackendSkip("gateway tracing: fallback"),
  async fn() {
    await using t = await setup("gateway-fallback");
    t.first.script({ json: { error: { message: "boom" } }, status: 500 });
    t.second.script({ json: chatCompletion("from second") });
    const answer = await t.client.chat.completions.create(
      { model: "smart", messages: [{ role: "user", content: "hi" }] },
      { headers: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, tracestate: "client=1" } },
    );
    assertEquals(answer.choices[0].message.content, "from second");

    const trace = await t.backend.waitForTrace(CLIENT_TRACE, 3);
    assertEquals(trace.spans.length, 3);
    const { request, attempts } = split(trace);
    // The client's span is the request span's (remote) parent: the trace is continued, not restarted.
    assertEquals(parentOf(request), CLIENT_SPAN);
    assertEquals(request.operationName, "chat smart");
    assertEquals(tag(request, "gateway.surface"), "chat_completions");
    assertEquals(tag(request, "gen_ai.request.model"), "smart");
    assertEquals(tag(request, "gateway.account"), "acct-b");
    assertEquals(tag(request, "gen_ai.provider.name"), "openai");
    assertEquals(tag(request, "http.response.status_code"), 200);
    // Usage is on the attempt that consumed it, not repeated on the request span: backends that total a
    // trace (Langfuse, Opik) would count every token twice.
    assertEquals(request.tags.filter((t) => t.key.startsWith("gen_ai.usage.")), []);
    assertEquals(tag(request, "span.kind"), "server");
    // 10 input and 5 output tokens at 1000 USD per million each.
    assertEquals(tag(request, "gateway.cost.usd"), 0.015);
    // Content capture is off by default: no prompt or answer leaves the gateway.
    assertEquals(request.logs.map((l) => tagValue(l.fields, "event")), []);

    assertEquals(attempts.length, 2);
    const [failed, answered] = attempts;
    assertEquals(failed.operationName, "chat m1");
    assertEquals(tag(failed, "gateway.account"), "acct-a");
    assertEquals(tag(failed, "gateway.attempt.index"), 0);
    assertEquals(tag(failed, "error.type"), "500");
    assertEquals(tag(failed, "http.response.status_code"), 500);
    assertEquals(tag(failed, "gateway.cooldown.set"), true);
    assertEquals(tag(failed, "otel.status_code"), "ERROR");
    assertEquals(tag(failed, "server.address"), "127.0.0.1");
    assertEquals(tag(failed, "span.kind"), "client");
    assertEquals(tag(answered, "gateway.account"), "acct-b");
    assertEquals(tag(answered, "gateway.attempt.index"), 1);
    assertEquals(tag(answered, "gateway.fallback.reason"), "server");
    assertEquals(tag(answered, "gen_ai.response.model"), "m1");
    assertEquals(tag(answered, "gen_ai.response.id"), "chatcmpl-upstream-1");
    assertEquals(tag(answered, "gen_ai.usage.input_tokens"), 10);
    assertEquals(tag(answered, "error.type"), undefined);

    // Each upstream received the traceparent of its own attempt span, with the client's tracestate.
    assertEquals(t.first.requests[0].headers.get("traceparent"), `00-${CLIENT_TRACE}-${failed.spanID}-01`);
    assertEquals(t.second.requests[0].headers.get("traceparent"), `00-${CLIENT_TRACE}-${answered.spanID}-01`);
    assertEquals(t.second.requests[0].headers.get("tracestate"), "client=1");

    const process = trace.processes[request.processID];
    assertEquals(process.serviceName, "gateway-fallback");
    assert(tagValue(process.tags, "service.instance.id") !== undefined, "the instance is named");
  },
});

Deno.test({
  name: "a stream's request span has its first-token event, and its attempt the usage and TTFT",
  ignore: otlpBackendSkip("gateway tracing: stream"),
  async fn() {
    await using t = await setup("gateway-stream");
    t.first.script({
      chunks: sse(
        chatChunk({ role: "assistant", content: "hel" }),
        chatChunk({ content: "lo" }),
        chatChunk({}, "stop"),
        { ...chatChunk({}), choices: [], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } },
        "[DONE]",
      ),
    });
    const stream = await t.client.chat.completions.create({
      model: "a/m1",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi" }],
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    assertEquals(text, "hello");

    // No client trace: the gateway started one, and the upstream's traceparent names it.
    const traceparent = t.first.requests[0].headers.get("traceparent") ?? "";
    const [, traceId, attemptSpan, flags] = traceparent.split("-");
    assertEquals(flags, "01");
    const trace = await t.backend.waitForTrace(traceId, 2);
    const { request, attempts } = split(trace);
    assertEquals(parentOf(request), undefined);
    assertEquals(tag(request, "gen_ai.request.stream"), true);
    assertEquals(attempts.map((a) => a.spanID), [attemptSpan]);
    const firstToken = request.logs.find((l) => tagValue(l.fields, "event") === "gateway.first_token");
    assert(firstToken !== undefined, "the request span has the first-token event");
    assert(Number(tagValue(firstToken.fields, "gen_ai.response.time_to_first_chunk")) >= 0);
    const [attempt] = attempts;
    assert(Number(tag(attempt, "gen_ai.response.time_to_first_chunk")) >= 0, "the attempt has its TTFT");
    assertEquals(tag(attempt, "gen_ai.usage.input_tokens"), 7);
    assertEquals(tag(attempt, "gen_ai.usage.output_tokens"), 2);
    assertEquals(tag(attempt, "gen_ai.response.finish_reasons"), '["stop"]');
    assertEquals(request.tags.filter((t) => t.key.startsWith("gen_ai.usage.")), []);
  },
});

Deno.test({
  name: "content capture, when on, records prompt and answer redacted and capped",
  ignore: otlpBackendSkip("gateway tracing: content capture"),
  async fn() {
    await using t = await setup("gateway-capture", "  capture_content: true\n  capture_max_chars: 256\n");
    t.first.script({ json: chatCompletion("the answer") });
    // The prompt quotes the upstream's own key (configured secret) and is longer than the cap.
    const prompt = `my key is upstream-key-acct-a ${"x".repeat(400)}`;
    await t.client.chat.completions.create({ model: "a/m1", messages: [{ role: "user", content: prompt }] });
    const traceId = (t.first.requests[0].headers.get("traceparent") ?? "").split("-")[1];
    const { request } = split(await t.backend.waitForTrace(traceId, 2));
    const details = request.logs.find((l) =>
      tagValue(l.fields, "event") === "gen_ai.client.inference.operation.details"
    );
    assert(details !== undefined, "the content event is recorded");
    const input = String(tagValue(details.fields, "gen_ai.input.messages"));
    assert(!input.includes("upstream-key-acct-a"), `the key is redacted: ${input}`);
    assert(input.length <= 256, `capped: ${input.length}`);
    assertEquals(tagValue(details.fields, "gateway.content.truncated"), true);
    assert(String(tagValue(details.fields, "gen_ai.output.messages")).includes("the answer"));
  },
});

Deno.test({
  name: "the request span lists the token savers that changed the request",
  ignore: otlpBackendSkip("gateway tracing: savers"),
  async fn() {
    await using t = await setup("gateway-savers");
    t.first.script({ json: chatCompletion("ok") });
    // Lines that repeat apart from their timestamps: RTK (on by default) folds them.
    const log = Array.from(
      { length: 400 },
      (_, i) =>
        `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO worker heartbeat ok queue=${i % 3}`,
    ).join("\n");
    await t.client.chat.completions.create({
      model: "a/m1",
      messages: [
        { role: "user", content: "check the logs" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "sh", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "call_1", content: log },
      ],
    });
    const traceId = (t.first.requests[0].headers.get("traceparent") ?? "").split("-")[1];
    const { request } = split(await t.backend.waitForTrace(traceId, 2));
    assertEquals(tag(request, "gateway.savers.applied"), '["rtk"]');
  },
});

Deno.test({
  name:
    "a caller's unsampled trace is followed: nothing exported, the upstream still gets the trace id (flag 00)",
  ignore: otlpBackendSkip("gateway tracing: parent-based sampling"),
  async fn() {
    await using t = await setup("gateway-sampling");
    t.first.script({ json: chatCompletion("ok") });
    const unsampled = "0af7651916cd43dd8448eb211c80319c";
    const sampled = "1af7651916cd43dd8448eb211c80319c";
    const ask = (traceId: string, flags: string) =>
      t.client.chat.completions.create(
        { model: "a/m1", messages: [{ role: "user", content: "hi" }] },
        { headers: { traceparent: `00-${traceId}-${CLIENT_SPAN}-${flags}` } },
      );
    await ask(unsampled, "00");
    const [, traceId, , flags] = (t.first.requests[0].headers.get("traceparent") ?? "").split("-");
    assertEquals([traceId, flags], [unsampled, "00"]);
    // Spans leave in order: once the later sampled request is in Jaeger, the first would be too.
    await ask(sampled, "01");
    await t.backend.waitForTrace(sampled, 2);
    assertEquals(await t.backend.trace(unsampled), null);
  },
});

Deno.test({
  name:
    "embeddings and rerank requests export spans named for their operation, and their upstreams get the traceparent",
  ignore: otlpBackendSkip("gateway tracing: embeddings and rerank"),
  async fn() {
    await using t = await setup("gateway-kinds");
    t.first.script({
      json: {
        object: "list",
        data: [{ object: "embedding", index: 0, embedding: [0.5, 1] }],
        usage: { prompt_tokens: 3, total_tokens: 3 },
      },
    });
    await t.client.embeddings.create({
      model: "a/text-embedding-3-small",
      input: "hi",
      encoding_format: "float",
    });
    t.first.script({ json: { results: [{ index: 0, relevance_score: 0.9 }], usage: { total_tokens: 4 } } });
    const reranked = await fetch(`${t.gw.url}/v1/rerank`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "a/rerank-v3.5", query: "q", documents: ["d"] }),
    });
    assertEquals(reranked.status, 200);
    await reranked.body?.cancel();
    assertEquals(t.first.requests.map((r) => r.path), ["/v1/embeddings", "/v1/rerank"]);
    for (
      const [index, operation, model] of [[0, "embeddings", "text-embedding-3-small"], [
        1,
        "rerank",
        "rerank-v3.5",
      ]]
    ) {
      const traceparent = t.first.requests[Number(index)].headers.get("traceparent") ?? "";
      const [, traceId, attemptSpan] = traceparent.split("-");
      const { request, attempts } = split(await t.backend.waitForTrace(traceId, 2));
      assertEquals(request.operationName, `${operation} a/${model}`);
      assertEquals(tag(request, "gen_ai.operation.name"), operation);
      assertEquals(attempts.map((a) => a.spanID), [attemptSpan]);
      assertEquals(tag(attempts[0], "gateway.account"), "acct-a");
      assertEquals(tag(attempts[0], "http.response.status_code"), 200);
    }
  },
});
