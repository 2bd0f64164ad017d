/**
 * Builds telemetry from resolved settings: the sampler, the resource, the encoder the protocol names,
 * the batch exporter and the request span sink. Called once by the composition root; nothing runs
 * until then. With telemetry off it returns a sink that records nothing but still passes an incoming
 * `traceparent` on to the upstream.
 */
import { BatchSpanExporter, type ExportCounters, type ExportPost, type Timers } from "./batch_exporter.ts";
import type { TelemetrySettings } from "./config.ts";
import type { RandomSource } from "./ids.ts";
import { JsonTraceEncoder } from "./otlp_json.ts";
import { ProtobufTraceEncoder } from "./otlp_protobuf.ts";
import { createRequestSpanSink, noopRequestSpanSink, type RequestSpanSink } from "./request_span_sink.ts";
import { buildResource } from "./resource.ts";
import { createSampler } from "./sampler.ts";

/** What the composition root passes in. */
export interface TelemetryDeps {
  /** Sends an export request (the gateway's HTTP/1.1 client in production). */
  readonly post: ExportPost;
  readonly timers: Timers;
  readonly random: RandomSource;
  readonly nowUnixNanos: () => bigint;
  readonly nowEpochMs: () => number;
  /** The request-log redactor, for captured content. */
  readonly redact: (text: string) => string;
  readonly serviceVersion: string;
  readonly instance: string;
  readonly worker: number | null;
  readonly counters?: ExportCounters;
  /** Where the exporter says it started failing or recovered (one line per change). */
  readonly log: (level: "warn" | "info", message: string) => void;
}

/** Telemetry for one process. */
export interface Telemetry {
  readonly sink: RequestSpanSink;
  /** The exporter, or null when telemetry is off. */
  readonly exporter: BatchSpanExporter | null;
  /** Sends what is queued, giving up after `deadlineMs`. */
  shutdown(deadlineMs: number): Promise<void>;
}

/** Telemetry as the settings describe it. */
export function createTelemetry(settings: TelemetrySettings, deps: TelemetryDeps): Telemetry {
  if (!settings.enabled) {
    return { sink: noopRequestSpanSink(deps.random), exporter: null, shutdown: () => Promise.resolve() };
  }
  const resource = buildResource({
    serviceName: settings.serviceName,
    serviceVersion: deps.serviceVersion,
    instance: deps.instance,
    worker: deps.worker,
    extra: settings.resourceAttributes,
  });
  const exporter = new BatchSpanExporter({
    endpoint: settings.endpoint,
    headers: settings.headers,
    encoder: settings.protocol === "http/json"
      ? new JsonTraceEncoder(resource)
      : new ProtobufTraceEncoder(resource),
    post: deps.post,
    timers: deps.timers,
    nowEpochMs: deps.nowEpochMs,
    maxQueueSize: settings.maxQueueSize,
    maxBatchSize: settings.maxBatchSize,
    scheduleDelayMs: settings.scheduleDelayMs,
    exportTimeoutMs: settings.exportTimeoutMs,
    retry: { maxRetries: settings.maxRetries, baseDelayMs: 1000, maxDelayMs: 30_000 },
    counters: deps.counters,
    onStateChange: (healthy, detail) =>
      deps.log(
        healthy ? "info" : "warn",
        healthy
          ? `trace export to ${settings.endpoint} works again`
          : `trace export to ${settings.endpoint} failing (${detail}); spans are dropped while it fails`,
      ),
  });
  const sink = createRequestSpanSink({
    sampler: createSampler(settings.sampler, settings.samplerArg),
    random: deps.random,
    nowUnixNanos: deps.nowUnixNanos,
    queue: exporter,
    capture: settings.captureContent ? { maxChars: settings.captureMaxChars, redact: deps.redact } : null,
  });
  return { sink, exporter, shutdown: (deadlineMs) => exporter.shutdown(deadlineMs) };
}
