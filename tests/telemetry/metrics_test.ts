/** The exporter's counters in the `/metrics` exposition. */
import { assertEquals } from "../helpers/assert.ts";
import { MetricsRegistry } from "../../src/metrics/registry.ts";
import { registerTelemetryMetrics } from "../../src/telemetry/metrics.ts";
import { parsePrometheusText, sumOf } from "../helpers/prom_text.ts";

Deno.test("registerTelemetryMetrics() exposes exported, dropped-by-reason, failed and queued", () => {
  const registry = new MetricsRegistry([["instance", "n1"]]);
  let queued = 7;
  const counters = registerTelemetryMetrics(registry, () => queued);
  counters.exported(10);
  counters.dropped("queue_full", 3);
  counters.dropped("queue_full", 2);
  counters.dropped("shutdown", 1);
  counters.failed();
  queued = 4;
  const families = parsePrometheusText(registry.render());
  assertEquals(families.get("gateway_otel_spans_exported_total")?.type, "counter");
  assertEquals(sumOf(families, "gateway_otel_spans_exported_total"), 10);
  assertEquals(
    sumOf(families, "gateway_otel_spans_dropped_total", { reason: "queue_full", instance: "n1" }),
    5,
  );
  assertEquals(sumOf(families, "gateway_otel_spans_dropped_total", { reason: "shutdown" }), 1);
  assertEquals(sumOf(families, "gateway_otel_export_failures_total"), 1);
  assertEquals(sumOf(families, "gateway_otel_queue_spans"), 4);
});
