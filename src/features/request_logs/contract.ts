/** Request logs contract: the section, the views, and the request-log routes. */
import type { Route } from "../../dashboard/contract/api.ts";

/** A request log row without bodies. */
export interface LogSummaryView {
  readonly id: number;
  readonly ts: number;
  readonly client_format: string;
  readonly model: string;
  readonly provider_id: string;
  readonly status: number;
  readonly latency_ms: number;
  readonly streamed: boolean;
  readonly user: string;
  readonly error: string;
  /** What translation lost for this request (`x-gateway-warnings` codes with the codecs' sentences). */
  readonly warnings: readonly LogWarningView[];
}

/** One warning of a logged request: a stable code (docs/warnings.md) and the codec's sentence. */
export interface LogWarningView {
  readonly code: string;
  readonly message: string;
  /** The field, part or value concerned, when the warning's producer gave one. */
  readonly detail?: Readonly<Record<string, string | number | boolean>>;
}

/** A request log row with bodies (`GET /dashboard/api/request-logs/{id}`). */
export interface LogDetailView extends LogSummaryView {
  readonly request_body: string;
  readonly response_body: string;
  readonly request_truncated: boolean;
  readonly response_truncated: boolean;
}

/** A page of request logs, newest first. */
export interface RequestLogsSection {
  readonly logging_enabled: boolean;
  readonly retention: number;
  readonly page: number;
  readonly limit: number;
  readonly total: number;
  readonly total_pages: number;
  readonly logs: readonly LogSummaryView[];
}

/** Answer of `DELETE /request-logs`. */
export interface LogsCleared {
  readonly ok: true;
  readonly deleted: number;
}

/** The request-log routes (bodies are administrators' reads). */
export interface RequestLogsApi {
  readonly "GET /request-logs/:id": Route<undefined, { readonly log: LogDetailView }>;
  readonly "DELETE /request-logs": Route<undefined, LogsCleared>;
}
