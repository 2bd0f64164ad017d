/**
 * The exporter's counters as `/metrics` families: spans exported, spans dropped by reason (a full
 * queue is the one that says the backend cannot keep up), failed export requests, and the queue's
 * length at scrape time.
 */
import type { MetricsRegistry } from "../metrics/registry.ts";
import type { DropReason, ExportCounters } from "./batch_exporter.ts";

const REASONS: readonly DropReason[] = ["queue_full", "export_failed", "rejected", "shutdown"];

/** Registers the families and returns the hooks the exporter calls; `queued` is read at scrape time. */
export function registerTelemetryMetrics(registry: MetricsRegistry, queued: () => number): ExportCounters {
  const exported = registry.counter(
    "gateway_otel_spans_exported_total",
    "Spans the OTLP endpoint accepted.",
  ).child([]);
  const dropped = registry.counter(
    "gateway_otel_spans_dropped_total",
    "Spans never exported: the queue was full, export failed, the endpoint rejected them, or shutdown came first.",
    ["reason"],
  );
  const failed = registry.counter(
    "gateway_otel_export_failures_total",
    "OTLP export requests that failed (error status, timeout or connection error), retries included.",
  ).child([]);
  registry.gauge("gateway_otel_queue_spans", "Spans waiting to be exported.", [], () => [[[], queued()]]);
  const byReason = new Map(REASONS.map((r) => [r, dropped.child([r])]));
  return {
    exported: (n) => exported.inc(n),
    dropped: (reason, n) => byReason.get(reason)?.inc(n),
    failed: () => failed.inc(),
  };
}
