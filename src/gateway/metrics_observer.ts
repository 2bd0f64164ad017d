import type { ActiveCooldown } from "../routing/mod.ts";
import type { BudgetRecord, UsageRow } from "../storage/mod.ts";
import {
  type CounterChild,
  type FamilyText,
  type HistogramChild,
  MetricsRegistry,
} from "../metrics/registry.ts";
import type { DispatchObserver, RequestTrace } from "./dispatch.ts";

/** Seconds: request latency and time to first byte (a model call takes ms to minutes). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Seconds: the gateway's own overhead (tens of µs to tens of ms). */
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** Tokens per operation: the GenAI semantic conventions' advice (1, 4, 16, … 4^13). */
const TOKEN_BUCKETS = Array.from({ length: 14 }, (_, i) => 4 ** i);

/** What the metrics read when scraped. */
export interface MetricsSources {
  readonly version: string;
  /** Worker id within one machine ("0" for a single process). */
  readonly worker: string;
  /** Instance name (the configured name, else the host name). */
  readonly instance: string;
  readonly now: () => number;
  readonly cooldowns: (now: number) => readonly ActiveCooldown[];
  readonly budgets: () => readonly BudgetRecord[];
  readonly spentToday: (keyId: number | null, now: number) => number;
  /** Resident set size in bytes, read at scrape time. */
  readonly rss: () => number;
  /** Process start, ms since the epoch. */
  readonly startedAt: number;
}

/**
 * The gateway's Prometheus metrics, fed by the dispatch observers (one call per request start and end)
 * and the usage recorder (one call per usage row), so its counters add up to the usage table. Per
 * request it does a few map lookups and additions; gauges (cooldowns, budgets, memory) are read only
 * when scraped. Names follow Prometheus conventions and the OpenTelemetry GenAI semantic conventions
 * where those name the same thing (`gen_ai_client_token_usage`, `gen_ai_client_operation_duration_seconds`,
 * `gen_ai_server_request_duration_seconds`), with the conventions' attribute names as labels there.
 */
export class GatewayMetrics implements DispatchObserver {
  readonly registry: MetricsRegistry;
  #inFlight = 0;
  readonly #requestSeries = new Map<string, RequestSeries>();
  readonly #attemptSeries = new Map<string, AttemptSeries>();
  readonly #requests;
  readonly #requestDuration;
  readonly #firstByte;
  readonly #overhead;
  readonly #chunks;
  readonly #fallbacks;
  readonly #attempts;
  readonly #operationDuration;
  readonly #tokenUsage;
  readonly #tokens;
  readonly #cost;

  constructor(sources: MetricsSources) {
    // `gateway_instance`, not `instance`: Prometheus sets `instance` itself to the scraped target.
    const r = new MetricsRegistry([["worker", sources.worker], ["gateway_instance", sources.instance]]);
    this.registry = r;
    r.gauge("gateway_build_info", "The running gateway's version (always 1).", ["version"], () => [[
      [sources.version],
      1,
    ]]);
    r.gauge(
      "process_start_time_seconds",
      "When the process started, in seconds since the epoch.",
      [],
      () => [[[], sources.startedAt / 1000]],
    );
    r.gauge(
      "process_resident_memory_bytes",
      "Resident memory of the process.",
      [],
      () => [[[], sources.rss()]],
    );
    r.gauge(
      "gateway_requests_in_flight",
      "Model requests being served now (streams until they end).",
      [],
      () => [
        [[], this.#inFlight],
      ],
    );
    this.#requests = r.counter(
      "gateway_requests_total",
      "Client model requests by surface, model asked for (empty when no upstream was tried), provider account of the last attempt and HTTP status (499: the client left).",
      ["surface", "model", "provider", "status"],
    );
    this.#requestDuration = r.histogram(
      "gen_ai_server_request_duration_seconds",
      "Whole client model requests, arrival to the last byte (streams included).",
      ["surface", "gen_ai_request_model", "gen_ai_provider_name"],
      LATENCY_BUCKETS,
    );
    this.#firstByte = r.histogram(
      "gateway_time_to_first_byte_seconds",
      "Successful model requests, arrival to the first byte of the answer (a stream's first chunk).",
      ["surface", "model", "provider"],
      LATENCY_BUCKETS,
    );
    this.#overhead = r.histogram(
      "gateway_overhead_seconds",
      "The gateway's own time per model request up to the first byte: elapsed time minus time waiting on upstreams.",
      ["surface"],
      OVERHEAD_BUCKETS,
    );
    this.#chunks = r.counter(
      "gateway_stream_chunks_total",
      "Chunks sent to clients on streamed answers.",
      ["surface", "model", "provider"],
    );
    this.#fallbacks = r.counter(
      "gateway_fallbacks_total",
      "Attempts after the first one of a request (a fallback to the next account or model).",
      ["surface", "model"],
    );
    this.#attempts = r.counter(
      "gateway_upstream_attempts_total",
      "Upstream attempts by routed model, provider account and status (one per usage row; 0: network failure).",
      ["surface", "model", "provider", "status"],
    );
    this.#operationDuration = r.histogram(
      "gen_ai_client_operation_duration_seconds",
      "Upstream attempts, request sent to the answer's end.",
      ["gen_ai_provider_name", "gen_ai_request_model", "error_type"],
      LATENCY_BUCKETS,
    );
    this.#tokenUsage = r.histogram(
      "gen_ai_client_token_usage",
      "Tokens per successful upstream attempt (input includes cached tokens).",
      ["gen_ai_provider_name", "gen_ai_request_model", "gen_ai_token_type"],
      TOKEN_BUCKETS,
    );
    this.#tokens = r.counter(
      "gateway_tokens_total",
      "Tokens by kind: input (the total, cached included), cache_read and cache_write (parts of input), output, reasoning (part of output where the upstream reports it).",
      ["model", "provider", "kind"],
    );
    this.#cost = r.counter("gateway_cost_usd_total", "Recorded cost in US dollars.", ["model", "provider"]);
    r.gauge(
      "gateway_cooldowns_active",
      "Provider accounts cooling down now (1 per account).",
      ["provider", "kind"],
      () => sources.cooldowns(sources.now()).map((c) => [[c.accountId, c.kind ?? "manual"], 1] as const),
    );
    r.gauge(
      "gateway_budget_spend_usd",
      "Today's spend of each budget's scope (global, or key:<id>), in US dollars.",
      ["scope"],
      () => sources.budgets().map((b) => [[scopeOf(b)], sources.spentToday(b.keyId, sources.now())] as const),
    );
    r.gauge(
      "gateway_budget_limit_usd",
      "Each budget's daily limit, in US dollars.",
      ["scope"],
      () => sources.budgets().map((b) => [[scopeOf(b)], b.dailyLimit] as const),
    );
  }

  /** A model request arrived. */
  started(_trace: RequestTrace): void {
    this.#inFlight++;
  }

  /** A model request is over (a stream when its body ended). */
  finished(trace: RequestTrace): void {
    this.#inFlight--;
    // Images, audio, embeddings and rerank are their own surfaces here, as in request logs and usage rows.
    const surface = trace.input.logSurface ?? trace.input.surface;
    const providerId = trace.providerId;
    // Only a model the gateway routed names a series: anyone may send any string, and a request that
    // never reached an upstream (bad input, unknown model, budget, all cooling) is told apart by status.
    const model = trace.attempts > 0 ? trace.model : "";
    const key = `${surface}\u0001${model}\u0001${providerId}\u0001${trace.status}`;
    let series = this.#requestSeries.get(key);
    if (series === undefined) {
      const labels = [surface, model, providerId];
      series = {
        requests: this.#requests.child([...labels, String(trace.status)]),
        duration: this.#requestDuration.child(labels),
        firstByte: this.#firstByte.child(labels),
        chunks: this.#chunks.child(labels),
        fallbacks: this.#fallbacks.child([surface, model]),
        overhead: this.#overhead.child([surface]),
      };
      cache(this.#requestSeries, key, series);
    }
    series.requests.inc();
    series.duration.observe(trace.latencyMs / 1000);
    const timing = trace.input.timing;
    if (timing.overheadMs >= 0) series.overhead.observe(timing.overheadMs / 1000);
    if (trace.status >= 200 && trace.status < 300 && timing.firstByteMs >= 0) {
      series.firstByte.observe(timing.firstByteMs / 1000);
    }
    if (trace.streamChunks > 0) series.chunks.inc(trace.streamChunks);
    if (trace.attempts > 1) series.fallbacks.inc(trace.attempts - 1);
  }

  /** A usage row was recorded (one per upstream attempt). */
  recorded(row: UsageRow): void {
    const { model, providerId, status } = row;
    const key = `${row.clientFormat}\u0001${model}\u0001${providerId}\u0001${status}`;
    let series = this.#attemptSeries.get(key);
    if (series === undefined) {
      const ok = status >= 200 && status < 300;
      const tokens = (kind: string) => this.#tokens.child([model, providerId, kind]);
      series = {
        attempts: this.#attempts.child([row.clientFormat, model, providerId, String(status)]),
        duration: this.#operationDuration.child([providerId, model, ok ? "" : String(status)]),
        usageIn: ok ? this.#tokenUsage.child([providerId, model, "input"]) : null,
        usageOut: ok ? this.#tokenUsage.child([providerId, model, "output"]) : null,
        input: tokens("input"),
        cacheRead: tokens("cache_read"),
        cacheWrite: tokens("cache_write"),
        output: tokens("output"),
        reasoning: tokens("reasoning"),
        cost: this.#cost.child([model, providerId]),
      };
      cache(this.#attemptSeries, key, series);
    }
    series.attempts.inc();
    series.duration.observe(row.latencyMs / 1000);
    series.usageIn?.observe(row.inputTokens);
    series.usageOut?.observe(row.outputTokens);
    series.input.inc(row.inputTokens);
    series.cacheRead.inc(row.cacheReadTokens);
    series.cacheWrite.inc(row.cacheCreationTokens);
    series.output.inc(row.outputTokens);
    series.reasoning.inc(row.reasoningTokens);
    series.cost.inc(row.cost);
  }

  /** Every family with its rendered samples (shared with the other workers). */
  snapshot(): FamilyText[] {
    return this.registry.snapshot();
  }
}

/** Handles per label combination: label values repeat, so each request costs one lookup, not one per family. */
const MAX_CACHED = 4096;

function cache<T>(map: Map<string, T>, key: string, value: T): void {
  // The series stay in their families; only the shortcut is dropped when client strings pile up.
  if (map.size >= MAX_CACHED) map.clear();
  map.set(key, value);
}

interface RequestSeries {
  readonly requests: CounterChild;
  readonly duration: HistogramChild;
  readonly firstByte: HistogramChild;
  readonly chunks: CounterChild;
  readonly fallbacks: CounterChild;
  readonly overhead: HistogramChild;
}

interface AttemptSeries {
  readonly attempts: CounterChild;
  readonly duration: HistogramChild;
  readonly usageIn: HistogramChild | null;
  readonly usageOut: HistogramChild | null;
  readonly input: CounterChild;
  readonly cacheRead: CounterChild;
  readonly cacheWrite: CounterChild;
  readonly output: CounterChild;
  readonly reasoning: CounterChild;
  readonly cost: CounterChild;
}

function scopeOf(budget: BudgetRecord): string {
  return budget.keyId === null ? "global" : `key:${budget.keyId}`;
}
