import type { RequestLogRecord, RequestLogSummary, RequestRow } from "../../storage/mod.ts";
import type {
  LogDetailView,
  LogSummaryView,
  RequestLogFilters,
  RequestLogsSection,
  RequestRowView,
} from "./contract.ts";
import { intParam, type SectionInput } from "../../dashboard/state/common.ts";
import { cursorText, FILTER_PARAMS, parseCursor, parseRequestFilter } from "./filter.ts";

/** A keyset page of requests matching the query's filters, newest first. */
export function requestLogsSection({ gateway, query }: SectionInput): RequestLogsSection {
  gateway.flushWrites();
  const limit = intParam(query, "limit", 50, { min: 1, max: 200 });
  const filter = parseRequestFilter(query, (name) => gateway.reads.keys.findByName(name)?.id);
  const page = gateway.reads.requests.page(filter, limit, parseCursor(query.get("cursor")));
  return {
    logging_enabled: gateway.state.settings.server_request_logging,
    retention: gateway.state.settings.server_request_log_retention,
    limit,
    filters: filtersGiven(query),
    rows: page.rows.map(requestRowView),
    next_cursor: cursorText(page.next),
  };
}

/** The filter parameters the query carried, as given. */
export function filtersGiven(query: URLSearchParams): RequestLogFilters {
  const given: Record<string, string> = {};
  for (const name of FILTER_PARAMS) {
    const value = query.get(name);
    if (value !== null && value !== "") given[name] = value;
  }
  return given;
}

/** A request of the index as the dashboard lists it. */
export function requestRowView(r: RequestRow): RequestRowView {
  return {
    id: r.id,
    ts: r.ts,
    client_format: r.clientFormat,
    model: r.model,
    provider_id: r.providerId,
    account_id: r.accountId,
    key_id: r.clientKeyId,
    user: r.clientKeyLabel,
    status: r.status,
    streamed: r.streamed,
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    cost: r.cost,
    ttft_ms: r.ttftMs,
    latency_ms: r.latencyMs,
    chain: r.chain.map((a) => ({
      provider_id: a.providerId,
      account_id: a.accountId,
      model: a.model,
      status: a.status,
      error: a.error,
      latency_ms: a.latencyMs,
    })),
    error: r.error,
    log_id: r.logId,
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
