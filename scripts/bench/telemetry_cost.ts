/**
 * Bench: what tracing adds to one request, in-process, with sampling at 1.0: the request span sink's
 * calls (start, one or two attempts, end) and the protobuf encoding of the spans they produce (which runs
 * off the request path but on the same thread, so it costs throughput too). The goal is ≥ 97 %
 * of the requests per second with export on; at ~345 µs of gateway CPU per non-stream request
 * (2.9 k req/s on one core) that leaves about 10 µs per request for all of this.
 * Run: deno run -A scripts/bench/telemetry_cost.ts [requests]
 * Prints CPU µs per request (median of rounds) for one attempt and for a fallback (two attempts).
 */
import { createRequestSpanSink } from "../../src/telemetry/request_span_sink.ts";
import { createSampler } from "../../src/telemetry/sampler.ts";
import { ProtobufTraceEncoder } from "../../src/telemetry/otlp_protobuf.ts";
import { buildResource } from "../../src/telemetry/resource.ts";

const ROUNDS = 5;

/**
 * This thread's CPU time in ms (the scheduler's counter): wall time would count the time other
 * processes hold the core, and these machines are shared.
 */
function threadCpuMs(): number {
  return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
}

/** Measures sink + encode per request; prints and returns µs per request for 1 and 2 attempts. */
export function benchTelemetryCost(requests = 50_000): { oneAttempt: number; fallback: number } {
  let batch = 0;
  const resource = buildResource({
    serviceName: "gateway",
    serviceVersion: "bench",
    instance: "b",
    worker: 0,
    extra: {},
  });
  const encoder = new ProtobufTraceEncoder(resource);
  const sink = createRequestSpanSink({
    sampler: createSampler("parentbased_always_on"),
    random: (bytes) => crypto.getRandomValues(bytes),
    nowUnixNanos: () => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n,
    // As the exporter does: each span encoded as it ends, batches of 512 sealed.
    queue: {
      enqueue(span) {
        encoder.add(span);
        if (++batch === 512) {
          encoder.seal();
          batch = 0;
        }
      },
    },
    capture: null,
  });
  const usage = { inputTotal: 1200, cacheRead: 1000, cacheWrite: 100, output: 80, reasoning: 0 };
  const request = (attempts: number) => {
    const trace = sink.start({
      requestId: "req",
      surface: "chat_completions",
      operation: "chat",
      requestModel: "fast",
      stream: false,
      incoming: null,
      combo: "fast",
    });
    for (let i = 0; i < attempts; i++) {
      const attempt = trace.attempt({
        index: i,
        provider: "openai",
        account: `acct-${i}`,
        model: "gpt-5-mini",
        serverAddress: "api.openai.com",
        serverPort: 443,
        fallbackReason: i > 0 ? "rate_limited" : undefined,
      });
      attempt.end(
        i < attempts - 1
          ? { error: { type: "rate_limited", message: "429" }, httpStatus: 429, cooldownSet: true }
          : { responseModel: "gpt-5-mini-2025", finishReasons: ["stop"], usage, httpStatus: 200 },
      );
    }
    trace.end({
      provider: "openai",
      account: "acct",
      responseModel: "gpt-5-mini-2025",
      finishReasons: ["stop"],
      costUsd: 0.0004,
      warnings: [],
      saversApplied: ["rtk"],
    });
  };
  const measure = (attempts: number) => {
    for (let i = 0; i < requests / 5; i++) request(attempts);
    const rounds: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const started = threadCpuMs();
      for (let i = 0; i < requests; i++) request(attempts);
      rounds.push(((threadCpuMs() - started) * 1000) / requests);
    }
    return rounds.sort((a, b) => a - b)[ROUNDS >> 1];
  };
  const oneAttempt = measure(1);
  const fallback = measure(2);
  console.log(
    `tracing per request (sink + protobuf encoding): ${oneAttempt.toFixed(2)} µs, with a fallback ${
      fallback.toFixed(2)
    } µs`,
  );
  return { oneAttempt, fallback };
}

if (import.meta.main) benchTelemetryCost(Number(Deno.args[0] ?? 50_000));
