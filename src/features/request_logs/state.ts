import type { RequestLogRecord, RequestLogSummary } from "../../storage/mod.ts";
import type { LogDetailView, LogSummaryView, RequestLogsSection } from "./contract.ts";
import { intParam, type SectionInput } from "../../dashboard/state/common.ts";

/** A page of request logs, newest first. */
export function requestLogsSection({ gateway, query }: SectionInput): RequestLogsSection {
  gateway.flushWrites();
  const store = gateway.reads;
  const limit = intParam(query, "limit", 50, { min: 1, max: 200 });
  const total = store.requestLogs.count();
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const page = intParam(query, "page", 1, { min: 1, max: totalPages });
  return {
    logging_enabled: gateway.state.settings.server_request_logging,
    retention: gateway.state.settings.server_request_log_retention,
    page,
    limit,
    total,
    total_pages: totalPages,
    logs: store.requestLogs.page(limit, (page - 1) * limit).map(logSummary),
  };
}

/** A request log row without bodies. */
export function logSummary(log: RequestLogSummary): LogSummaryView {
  return {
    id: log.id,
    ts: log.ts,
    client_format: log.clientFormat,
    model: log.model,
    provider_id: log.providerId,
    status: log.status,
    latency_ms: log.latencyMs,
    streamed: log.streamed,
    user: log.user,
    error: log.error,
    warnings: log.warnings,
  };
}

/** A request log row with bodies. */
export function logDetail(log: RequestLogRecord): LogDetailView {
  return {
    ...logSummary(log),
    request_body: log.requestBody,
    response_body: log.responseBody,
    request_truncated: log.requestTruncated,
    response_truncated: log.responseTruncated,
  };
}
