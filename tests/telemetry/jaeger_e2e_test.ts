/**
 * End to end against a real OTLP backend (Jaeger all-in-one 1.76.0): spans built by the request span
 * sink, exported by the batch exporter in protobuf and in JSON, read back through Jaeger's query API
 * with their attributes, parent/child links, events and resource. This is what proves the encoders.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import {
  type JaegerSpan,
  type JaegerTrace,
  type OtlpBackend,
  otlpBackendSkip,
  startOtlpBackend,
  tagValue,
} from "../helpers/otlp_backend.ts";
import { createTelemetry, type Telemetry } from "../../src/telemetry/telemetry.ts";
import { EXPORT_ANSWER_MAX_BYTES } from "../../src/telemetry/batch_exporter.ts";
import { clientPost } from "../../src/executors/client_post.ts";
import { ProviderClient } from "../../src/executors/http_clients.ts";
import { resolveTelemetry, telemetrySchema } from "../../src/telemetry/config.ts";
import { extractTraceContext } from "../../src/telemetry/trace_context.ts";
import type { RequestStart } from "../../src/telemetry/request_span.ts";

function telemetryFor(
  backend: OtlpBackend,
  protocol: "http/protobuf" | "http/json",
  service: string,
): Telemetry {
  const yaml = telemetrySchema.parse({
    enabled: true,
    protocol,
    capture_content: true,
    capture_max_chars: 2000,
    schedule_delay_ms: 50,
    resource_attributes: { "deployment.environment": "e2e" },
  });
  // The endpoint and service name come from the standard variables, as an operator would set them.
  const { settings, warnings } = resolveTelemetry(yaml, (name) =>
    ({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: backend.tracesUrl,
      OTEL_SERVICE_NAME: service,
    })[name]);
  assertEquals(warnings, []);
  const next = mulberry32(Date.now() >>> 0);
  // Exports go through the gateway's own client, as composeTelemetry sends them; closed at shutdown.
  const client = new ProviderClient(() => undefined);
  const telemetry = createTelemetry(settings, {
    post: clientPost(client, EXPORT_ANSWER_MAX_BYTES),
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) },
    random: (bytes) => {
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
    },
    nowUnixNanos: () => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n,
    nowEpochMs: () => Date.now(),
    redact: (text) => text.replace(/sk-[A-Za-z0-9]{8,}/g, "[redacted]"),
    serviceVersion: "0.0.0-test",
    instance: "e2e-node",
    worker: 3,
    log: () => {},
  });
  return { ...telemetry, shutdown: (ms) => telemetry.shutdown(ms).finally(() => client.close()) };
}

/** One request with a fallback: the first attempt is rate limited, the second answers. */
function recordFallbackRequest(telemetry: Telemetry, traceparent: string): { traceId: string } {
  const headers = new Headers({ traceparent, tracestate: "client=1" });
  const start: RequestStart = {
    requestId: "req-e2e",
    surface: "messages",
    operation: "chat",
    requestModel: "smart",
    stream: true,
    incoming: extractTraceContext((n) => headers.get(n)),
    combo: "smart",
  };
  const trace = telemetry.sink.start(start);
  const first = trace.attempt({
    index: 0,
    provider: "openai",
    account: "openai-main",
    model: "gpt-5",
    serverAddress: "api.openai.com",
    serverPort: 443,
  });
  first.end({
    error: { type: "rate_limited", message: "429 Too Many Requests" },
    httpStatus: 429,
    cooldownSet: true,
  });
  const second = trace.attempt({
    index: 1,
    provider: "anthropic",
    account: "claude",
    model: "claude-sonnet-4-5",
    serverAddress: "api.anthropic.com",
    fallbackReason: "rate_limited",
  });
  second.firstToken();
  trace.firstToken();
  const usage = { inputTotal: 2000, cacheRead: 1500, cacheWrite: 0, output: 120, reasoning: 40 };
  second.end({
    responseModel: "claude-sonnet-4-5-20250929",
    finishReasons: ["end_turn"],
    usage,
    httpStatus: 200,
  });
  trace.content({
    request: {
      model: "smart",
      system: [],
      messages: [{ role: "user", parts: [{ kind: "text", text: "key sk-live1234567890abcd, say hi" }] }],
      tools: [],
      params: {},
      stream: true,
      source: "messages",
    },
    answer: [{ kind: "text", text: "hi" }],
    finish: { unified: "stop", raw: "end_turn" },
  });
  trace.end({
    provider: "anthropic",
    account: "claude",
    responseModel: "claude-sonnet-4-5-20250929",
    finishReasons: ["end_turn"],
    costUsd: 0.0123,
    warnings: [{ code: "dropped_field:store", message: "dropped" }],
    saversApplied: ["rtk", "caveman"],
  });
  return { traceId: trace.traceId };
}

function checkTrace(trace: JaegerTrace, clientSpanId: string, service: string): void {
  assertEquals(trace.spans.length, 3);
  const root = trace.spans.find((s) => s.operationName === "chat smart")!;
  const attempts = trace.spans.filter((s) => s !== root).sort((a, b) =>
    Number(tagValue(a.tags, "gateway.attempt.index")) - Number(tagValue(b.tags, "gateway.attempt.index"))
  );
  assert(root !== undefined, trace.spans.map((s) => s.operationName).join(", "));
  // The request span continues the client's trace: its parent is the client's span.
  assertEquals(root.references, [{ refType: "CHILD_OF", traceID: trace.traceID, spanID: clientSpanId }]);
  for (const a of attempts) {
    assertEquals(a.references, [{ refType: "CHILD_OF", traceID: trace.traceID, spanID: root.spanID }]);
    assertEquals(tagValue(a.tags, "span.kind"), "client");
  }
  assertEquals(tagValue(root.tags, "span.kind"), "server");

  const [first, second] = attempts;
  assertEquals(first.operationName, "chat gpt-5");
  const tags = (s: JaegerSpan) => Object.fromEntries(s.tags.map((t) => [t.key, [t.type, t.value]]));
  const f = tags(first);
  assertEquals(f["gen_ai.provider.name"], ["string", "openai"]);
  assertEquals(f["gen_ai.request.model"], ["string", "gpt-5"]);
  assertEquals(f["server.address"], ["string", "api.openai.com"]);
  assertEquals(f["server.port"], ["int64", 443]);
  assertEquals(f["error.type"], ["string", "rate_limited"]);
  assertEquals(f["gateway.cooldown.set"], ["bool", true]);
  assertEquals(f["otel.status_code"], ["string", "ERROR"]);
  assertEquals(f["otel.status_description"], ["string", "429 Too Many Requests"]);

  const s = tags(second);
  assertEquals(s["gateway.fallback.reason"], ["string", "rate_limited"]);
  assertEquals(s["gen_ai.response.model"], ["string", "claude-sonnet-4-5-20250929"]);
  assertEquals(s["gen_ai.usage.input_tokens"], ["int64", 2000]);
  assertEquals(s["gen_ai.usage.output_tokens"], ["int64", 120]);
  assertEquals(s["gen_ai.usage.cache_read.input_tokens"], ["int64", 1500]);
  assertEquals(s["gen_ai.usage.cache_creation.input_tokens"], ["int64", 0]);
  assertEquals(s["gen_ai.usage.reasoning.output_tokens"], ["int64", 40]);
  // Jaeger's v1 model has no arrays: it shows them as JSON text.
  assertEquals(s["gen_ai.response.finish_reasons"], ["string", '["end_turn"]']);
  assertEquals(s["gen_ai.response.time_to_first_chunk"]?.[0], "float64");
  assertEquals(second.logs.map((l) => tagValue(l.fields, "event")), ["gateway.first_token"]);

  const r = tags(root);
  assertEquals(r["gen_ai.operation.name"], ["string", "chat"]);
  assertEquals(r["gen_ai.request.model"], ["string", "smart"]);
  assertEquals(r["gen_ai.provider.name"], ["string", "anthropic"]);
  assertEquals(r["gateway.surface"], ["string", "messages"]);
  assertEquals(r["gateway.combo"], ["string", "smart"]);
  assertEquals(r["gateway.cost.usd"], ["float64", 0.0123]);
  assertEquals(r["gateway.warnings"], ["string", '["dropped_field:store"]']);
  assertEquals(r["gateway.savers.applied"], ["string", '["rtk","caveman"]']);
  assertEquals(r["gen_ai.request.stream"], ["bool", true]);
  // Usage only on the attempt that consumed it (a trace's token total is the sum over its spans).
  assertEquals(Object.keys(r).filter((k) => k.startsWith("gen_ai.usage.")), []);

  const events = root.logs.map((l) => tagValue(l.fields, "event"));
  assertEquals(events, ["gateway.first_token", "gen_ai.client.inference.operation.details"]);
  const details = root.logs[1].fields;
  const input = String(tagValue(details, "gen_ai.input.messages"));
  assert(input.includes("key [redacted], say hi") && !input.includes("sk-live"), input);
  assertEquals(
    tagValue(details, "gen_ai.output.messages"),
    '[{"role":"assistant","parts":[{"type":"text","content":"hi"}],"finish_reason":"end_turn"}]',
  );

  const process = trace.processes[root.processID];
  assertEquals(process.serviceName, service);
  assertEquals(tagValue(process.tags, "service.instance.id"), "e2e-node");
  assertEquals(tagValue(process.tags, "gateway.worker"), "3");
  assertEquals(tagValue(process.tags, "deployment.environment"), "e2e");
  assertEquals(tagValue(process.tags, "service.version"), "0.0.0-test");
}

const NAME = "Jaeger receives the request span and two attempt children, in protobuf and in JSON";

Deno.test({
  name: NAME,
  ignore: otlpBackendSkip(NAME),
  async fn() {
    const backend = await startOtlpBackend();
    try {
      for (const protocol of ["http/protobuf", "http/json"] as const) {
        const service = `gateway-e2e-${protocol.replace("/", "-")}`;
        const telemetry = telemetryFor(backend, protocol, service);
        const clientTrace = protocol === "http/json"
          ? "1bf92f3577b34da6a3ce929d0e0e4736"
          : "2bf92f3577b34da6a3ce929d0e0e4736";
        const clientSpan = "00f067aa0ba902b7";
        const { traceId } = recordFallbackRequest(telemetry, `00-${clientTrace}-${clientSpan}-01`);
        assertEquals(traceId, clientTrace, "the client's trace is continued");
        await telemetry.exporter!.forceFlush();
        const stats = telemetry.exporter!.stats();
        assertEquals([stats.exported, stats.failedRequests], [3, 0], protocol);
        checkTrace(await backend.waitForTrace(traceId, 3), clientSpan, service);
        const byService = await backend.traces(service);
        assertEquals(byService.map((t) => t.traceID), [traceId]);
        await telemetry.shutdown(2000);
      }
    } finally {
      await backend.stop();
    }
  },
});
