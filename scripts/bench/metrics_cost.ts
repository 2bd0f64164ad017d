/**
 * Bench: what the metrics and `x-gateway-overhead-ms` add to one request, in-process: the request's
 * RequestTiming (waits, first byte, header value) and the metrics observer's calls (request start and
 * end, one usage row), over a realistic spread of label values; and one `/metrics` render.
 * Run: deno run -A scripts/bench/metrics_cost.ts [requests]
 * `deno task bench` runs it too. Prints ns per request (median of rounds) and the render time.
 */
import { GatewayMetrics } from "../../src/gateway/metrics_observer.ts";
import type { RequestTrace } from "../../src/gateway/request_lifecycle.ts";
import { RequestTiming } from "../../src/gateway/request_timing.ts";
import type { UsageRow } from "../../src/storage/mod.ts";

const ROUNDS = 5;

/** Measures the per-request metrics work; prints and returns ns per request and µs per render. */
export function benchMetricsCost(requests = 200_000): { nsPerRequest: number; microsPerRender: number } {
  const metrics = new GatewayMetrics({
    version: "bench",
    worker: "0",
    instance: "bench",
    now: Date.now,
    cooldowns: () => [],
    budgets: () => [],
    spentToday: () => 0,
    rss: () => 0,
    startedAt: Date.now(),
  });
  const models = Array.from({ length: 12 }, (_, i) => `p${i % 4}/model-${i}`);
  const surfaces = ["chat_completions", "messages", "responses", "generate_content"] as const;
  const clock = () => performance.now();
  const traces = models.map((model, i): RequestTrace => ({
    id: i,
    input: {
      surface: surfaces[i % surfaces.length],
      body: {},
      decode: {},
      identity: { kind: "anonymous" },
      clientHeaders: new Headers(),
      clientSignal: () => new AbortController().signal,
      timing: new RequestTiming(clock),
    },
    startedAt: 0,
    model,
    providerId: `acct-${i % 4}`,
    status: i % 10 === 0 ? 503 : 200,
    streamed: i % 2 === 0,
    responseBody: "",
    error: "",
    latencyMs: 120 + i,
    warnings: [],
    attempts: 1 + (i % 3 === 0 ? 1 : 0),
    attemptRows: [],
    streamChunks: i % 2 === 0 ? 40 : 0,
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    sampled: false,
    usage: null,
  } as RequestTrace));
  const rows = traces.map((trace): UsageRow => ({
    ts: 0,
    clientFormat: trace.input.surface,
    requestModel: trace.model,
    model: trace.model,
    providerId: trace.providerId,
    accountId: trace.providerId,
    clientKeyId: null,
    clientKeyLabel: "",
    status: trace.status,
    inputTokens: 1200,
    cacheReadTokens: 300,
    cacheCreationTokens: 0,
    outputTokens: 250,
    reasoningTokens: 40,
    estimated: false,
    cost: 0.0042,
    priced: true,
    latencyMs: trace.latencyMs,
    streamed: trace.streamed,
    error: "",
  }));
  const perRequest: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let i = 0; i < requests; i++) {
      const k = i % traces.length;
      const trace = traces[k];
      // What one request does: a fresh timing, two upstream waits, the first byte, the header value.
      const timing = new RequestTiming(clock);
      timing.waitStart();
      timing.waitEnd();
      timing.waitStart();
      timing.waitEnd();
      timing.firstByte();
      timing.overheadMs.toFixed(3);
      (trace.input as { timing: RequestTiming }).timing = timing;
      metrics.started(trace);
      metrics.recorded(rows[k]);
      metrics.finished(trace);
    }
    perRequest.push(((performance.now() - started) * 1e6) / requests);
  }
  perRequest.sort((a, b) => a - b);
  const renders: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    metrics.registry.render();
    renders.push((performance.now() - started) * 1000);
  }
  renders.sort((a, b) => a - b);
  const result = {
    nsPerRequest: Math.round(perRequest[Math.floor(ROUNDS / 2)]),
    microsPerRender: Math.round(renders[10]),
  };
  const lines = metrics.registry.render().split("\n").filter((l) => l !== "" && !l.startsWith("#")).length;
  console.log(
    `Metrics and x-gateway-overhead-ms per request (in-process, ${traces.length} label sets):\n` +
      `  ${result.nsPerRequest} ns per request (timing + observer start/end + one usage row; rounds: ${
        perRequest.map((n) => Math.round(n)).join(", ")
      })\n` +
      `  /metrics render: ${result.microsPerRender} µs for ${lines} samples`,
  );
  return result;
}

if (import.meta.main) benchMetricsCost(Number(Deno.args[0] ?? 200_000));
