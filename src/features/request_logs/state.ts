import type { RequestLogsSection } from "../../dashboard/contract/mod.ts";
import { logSummary } from "../providers/state.ts";
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
