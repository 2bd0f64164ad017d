/**
 * The telemetry folder's public face: OTLP trace export, W3C trace context and the request span sink
 * the request lifecycle calls. See docs/telemetry.md.
 */
export { createTelemetry, type Telemetry, type TelemetryDeps } from "./telemetry.ts";
export {
  type OtlpProtocol,
  type ResolvedTelemetry,
  resolveTelemetry,
  telemetrySchema,
  type TelemetrySettings,
  type TelemetryYaml,
} from "./config.ts";
export { registerTelemetryMetrics } from "./metrics.ts";
export { type RequestLogFields, requestLogLine } from "./request_log_line.ts";
export { extractTraceContext, type TraceContext } from "./trace_context.ts";
export type { AttemptTrace, CapturedExchange, RequestSpanSink, RequestTrace } from "./request_span_sink.ts";
export type { AttemptEnd, AttemptStart, RequestEnd, RequestStart } from "./request_span.ts";
export type {
  BatchSpanExporter,
  ExportAnswer,
  ExportCounters,
  ExporterStats,
  ExportPost,
} from "./batch_exporter.ts";
export { EXPORT_ANSWER_MAX_BYTES } from "./batch_exporter.ts";
export { noopRequestSpanSink } from "./request_span_sink.ts";
