/**
 * The request span sink the lifecycle will call: one server span per request, one client child per
 * attempt, GenAI attribute names, trace context continued from the client and passed to the upstream,
 * content capture only when on (redacted and capped).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { mulberry32 } from "../fuzz/fuzzer.ts";
import {
  createRequestSpanSink,
  noopRequestSpanSink,
  type SinkDeps,
} from "../../src/telemetry/request_span_sink.ts";
import { createSampler } from "../../src/telemetry/sampler.ts";
import { extractTraceContext, parseTraceparent } from "../../src/telemetry/trace_context.ts";
import { attributeList, type AttributeValue, type SpanData } from "../../src/telemetry/span.ts";
import type { RequestStart } from "../../src/telemetry/request_span.ts";
import type { NeutralRequest } from "../../src/model/request.ts";

function deps(
  overrides: Partial<SinkDeps> = {},
): { deps: SinkDeps; spans: SpanData[]; tick: (ms: number) => void } {
  const next = mulberry32(5);
  let now = 1_800_000_000_000_000_000n;
  const spans: SpanData[] = [];
  return {
    spans,
    tick: (ms) => {
      now += BigInt(ms) * 1_000_000n;
    },
    deps: {
      sampler: createSampler("parentbased_always_on"),
      random: (bytes) => {
        for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
      },
      nowUnixNanos: () => now,
      queue: { enqueue: (s) => spans.push(s) },
      capture: null,
      ...overrides,
    },
  };
}

const START: RequestStart = {
  requestId: "req-1",
  surface: "chat_completions",
  operation: "chat",
  requestModel: "fast",
  stream: true,
  incoming: null,
  combo: "fast",
  clientKey: "team-a",
};

function attrs(span: SpanData): Record<string, unknown> {
  const plain = (v: AttributeValue): unknown =>
    v.kind === "array" ? v.values.map(plain) : v.kind === "int" ? Number(v.value) : v.value;
  return Object.fromEntries(attributeList(span.attributes).map((a) => [a.key, plain(a.value)]));
}

Deno.test("a request with a fallback gives one server span with two client attempt children", () => {
  const t = deps();
  const sink = createRequestSpanSink(t.deps);
  const trace = sink.start(START);
  const first = trace.attempt({
    index: 0,
    provider: "openai",
    account: "openai-main",
    model: "gpt-5-mini",
    serverAddress: "api.openai.com",
    serverPort: 443,
  });
  t.tick(120);
  first.end({
    error: { type: "rate_limited", message: "429 from upstream" },
    httpStatus: 429,
    cooldownSet: true,
  });
  const second = trace.attempt({
    index: 1,
    provider: "anthropic",
    account: "claude-backup",
    model: "claude-haiku-4-5",
    serverAddress: "api.anthropic.com",
    fallbackReason: "rate_limited",
  });
  t.tick(300);
  second.firstToken();
  trace.firstToken();
  t.tick(500);
  const usage = { inputTotal: 1200, cacheRead: 1000, cacheWrite: 100, output: 80, reasoning: 0 };
  second.end({
    responseModel: "claude-haiku-4-5-20251001",
    finishReasons: ["end_turn"],
    usage,
    httpStatus: 200,
  });
  trace.end({
    provider: "anthropic",
    account: "claude-backup",
    responseModel: "claude-haiku-4-5-20251001",
    finishReasons: ["end_turn"],
    costUsd: 0.00042,
    warnings: [{ code: "dropped_field:store", message: "store is not supported" }],
    saversApplied: ["rtk"],
  });

  assertEquals(t.spans.length, 3);
  const [a1, a2, root] = t.spans;
  assertEquals(root.parentSpanId, "");
  assertEquals(root.kind, 2);
  assertEquals(root.name, "chat fast");
  for (const child of [a1, a2]) {
    assertEquals(child.traceId, root.traceId);
    assertEquals(child.parentSpanId, root.spanId);
    assertEquals(child.kind, 3);
  }
  assertEquals(a1.name, "chat gpt-5-mini");
  assertEquals(attrs(a1), {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "gpt-5-mini",
    "server.address": "api.openai.com",
    "server.port": 443,
    "gateway.account": "openai-main",
    "gateway.attempt.index": 0,
    "http.response.status_code": 429,
    "error.type": "rate_limited",
    "gateway.cooldown.set": true,
  });
  assertEquals(a1.status, { code: 2, message: "429 from upstream" });
  assertEquals(a1.endTimeUnixNano - a1.startTimeUnixNano, 120_000_000n);

  const second_ = attrs(a2);
  assertEquals(second_["gateway.fallback.reason"], "rate_limited");
  assertEquals(second_["gen_ai.response.model"], "claude-haiku-4-5-20251001");
  assertEquals(second_["gen_ai.response.finish_reasons"], ["end_turn"]);
  assertEquals(second_["gen_ai.usage.input_tokens"], 1200);
  assertEquals(second_["gen_ai.usage.cache_read.input_tokens"], 1000);
  assertEquals(second_["gen_ai.usage.cache_creation.input_tokens"], 100);
  assertEquals(second_["gen_ai.usage.output_tokens"], 80);
  assertEquals(second_["gen_ai.response.time_to_first_chunk"], 0.3);
  assertEquals(a2.status.code, 0);

  const r = attrs(root);
  assertEquals(r["gateway.surface"], "chat_completions");
  assertEquals(r["gateway.request.id"], "req-1");
  assertEquals(r["gateway.combo"], "fast");
  assertEquals(r["gateway.client.key"], "team-a");
  assertEquals(r["gen_ai.provider.name"], "anthropic");
  assertEquals(r["gateway.cost.usd"], 0.00042);
  assertEquals(r["gateway.warnings"], ["dropped_field:store"]);
  assertEquals(r["gateway.savers.applied"], ["rtk"]);
  assertEquals(r["gen_ai.request.stream"], true);
  // Usage only on the attempts: a backend summing a trace's spans must count each token once.
  assertEquals(Object.keys(r).filter((k) => k.startsWith("gen_ai.usage.")), []);
  assertEquals(root.events.map((e) => e.name), ["gateway.first_token"]);
  assertEquals(root.events[0].timeUnixNano - root.startTimeUnixNano, 420_000_000n);
});

Deno.test("an incoming traceparent is continued and the upstream call carries the attempt's traceparent", () => {
  const t = deps();
  const headers = new Headers({
    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    tracestate: "vendor=abc",
  });
  const trace = createRequestSpanSink(t.deps).start({
    ...START,
    incoming: extractTraceContext((n) => headers.get(n)),
  });
  const attempt = trace.attempt({ index: 0, provider: "openai", account: "a", model: "m" });
  attempt.end({});
  trace.end({});
  const [child, root] = t.spans;
  assertEquals(root.traceId, "4bf92f3577b34da6a3ce929d0e0e4736");
  assertEquals(root.parentSpanId, "00f067aa0ba902b7");
  assertEquals(root.parentIsRemote, true);
  assertEquals(root.traceState, "vendor=abc");
  const sent = parseTraceparent(attempt.headers.traceparent);
  assertEquals(sent, { traceId: root.traceId, spanId: child.spanId, flags: 1 });
  assertEquals(attempt.headers.tracestate, "vendor=abc");
});

Deno.test("a caller that did not sample is followed: no spans, and the upstream still gets the trace id (flag 00)", () => {
  const t = deps();
  const incoming = {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    flags: 0,
    traceState: "",
    remote: true,
  };
  const trace = createRequestSpanSink(t.deps).start({ ...START, incoming });
  assertEquals(trace.sampled, false);
  const attempt = trace.attempt({ index: 0, provider: "openai", account: "a", model: "m" });
  attempt.end({});
  trace.end({});
  assertEquals(t.spans.length, 0);
  const sent = parseTraceparent(attempt.headers.traceparent)!;
  assertEquals([sent.traceId, sent.flags], [incoming.traceId, 0]);
});

Deno.test("end() counts once, and an attempt never ended is closed as abandoned by the request's end", () => {
  const t = deps();
  const trace = createRequestSpanSink(t.deps).start(START);
  trace.attempt({ index: 0, provider: "openai", account: "a", model: "m" });
  trace.end({ error: { type: "internal", message: "thrown" } });
  trace.end({});
  assertEquals(t.spans.length, 2);
  assertEquals(attrs(t.spans[0])["error.type"], "abandoned");
  assertEquals(t.spans[1].status.code, 2);
});

const REQUEST: NeutralRequest = {
  model: "fast",
  system: [{ kind: "text", text: "You are terse." }],
  messages: [{
    role: "user",
    parts: [{ kind: "text", text: "my key is sk-abcdef1234567890XYZ please " + "x".repeat(5000) }],
  }],
  tools: [],
  params: {},
  stream: false,
  source: "chat_completions",
};

Deno.test("content capture is off by default: no prompt or answer reaches a span", () => {
  const t = deps();
  const trace = createRequestSpanSink(t.deps).start(START);
  trace.content({ request: REQUEST, answer: [{ kind: "text", text: "hi" }], finish: null });
  trace.end({});
  assertEquals(t.spans[0].events.length, 0);
  assert(!JSON.stringify(t.spans[0], (_k, v) => typeof v === "bigint" ? String(v) : v).includes("terse"));
});

Deno.test("content capture, when on, records the GenAI details event, redacted and capped", () => {
  const t = deps({
    capture: { maxChars: 1000, redact: (s) => s.replace(/sk-[A-Za-z0-9]+/g, "[redacted]") },
  });
  const trace = createRequestSpanSink(t.deps).start(START);
  trace.content({
    request: REQUEST,
    answer: [{ kind: "text", text: "Hello." }],
    finish: { unified: "stop", raw: "end_turn" },
  });
  trace.end({});
  const event = t.spans[0].events[0];
  assertEquals(event.name, "gen_ai.client.inference.operation.details");
  const a = Object.fromEntries(
    event.attributes.map((x) => [x.key, x.value.kind === "string" ? x.value.value : x.value]),
  );
  const input = String(a["gen_ai.input.messages"]);
  assert(
    input.startsWith('[{"role":"user","parts":[{"type":"text","content":"my key is [redacted] please'),
    input.slice(0, 80),
  );
  assertEquals(input.length, 1000);
  assertEquals(
    a["gen_ai.output.messages"],
    '[{"role":"assistant","parts":[{"type":"text","content":"Hello."}],"finish_reason":"end_turn"}]',
  );
  assertEquals(a["gen_ai.system_instructions"], '[{"type":"text","content":"You are terse."}]');
  assertEquals(a["gateway.content.truncated"], { kind: "bool", value: true });
});

Deno.test("noopRequestSpanSink() records nothing but passes the caller's trace on to the upstream", () => {
  const next = mulberry32(1);
  const sink = noopRequestSpanSink((b) => b.forEach((_, i) => b[i] = Math.floor(next() * 256)));
  const incoming = {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    flags: 1,
    traceState: "v=1",
    remote: true,
  };
  const attempt = sink.start({ ...START, incoming }).attempt({
    index: 0,
    provider: "p",
    account: "a",
    model: "m",
  });
  assertEquals(attempt.headers, {
    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    tracestate: "v=1",
  });
  const fresh = sink.start(START);
  assert(/^[0-9a-f]{32}$/.test(fresh.traceId), "log lines still get a trace id");
  assertEquals(
    fresh.attempt({ index: 0, provider: "p", account: "a", model: "m" }).headers,
    {},
    "none invented",
  );
});
