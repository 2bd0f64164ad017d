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

/** One attempt of a request's chain (fallbacks in order; the last one served or failed the request). */
export interface ChainAttemptView {
  readonly provider_id: string;
  readonly account_id: string;
  readonly model: string;
  readonly status: number;
  readonly error: string;
  readonly latency_ms: number;
}

/** One client request as the request log lists it (bodies, when kept, through `log_id`). */
export interface RequestRowView {
  readonly id: number;
  readonly ts: number;
  readonly client_format: string;
  readonly model: string;
  readonly provider_id: string;
  readonly account_id: string;
  /** The client key's id (null: no key) and name. */
  readonly key_id: number | null;
  readonly user: string;
  readonly status: number;
  readonly streamed: boolean;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost: number;
  /** Milliseconds to the first byte of the answer; -1 when none was sent. */
  readonly ttft_ms: number;
  readonly latency_ms: number;
  readonly chain: readonly ChainAttemptView[];
  readonly error: string;
  /** The captured bodies (`GET /request-logs/{log_id}`), or null when not captured or pruned. */
  readonly log_id: number | null;
}

/** One request of an export: the listed row, with its bodies and warnings while they are kept. */
export interface RequestExportRow extends RequestRowView {
  readonly request_body?: string;
  readonly response_body?: string;
  readonly request_truncated?: boolean;
  readonly response_truncated?: boolean;
  readonly warnings?: readonly LogWarningView[];
}

/** The filters a request-log page was built with, as given (see docs/dashboard-api.md). */
export interface RequestLogFilters {
  readonly from?: string;
  readonly to?: string;
  readonly model?: string;
  readonly provider?: string;
  readonly account?: string;
  readonly key?: string;
  readonly status?: string;
  readonly surface?: string;
  readonly stream?: string;
  readonly q?: string;
}

/** A keyset page of requests, newest first: `next_cursor` fetches the next one (null: this was the last). */
export interface RequestLogsSection {
  readonly logging_enabled: boolean;
  readonly retention: number;
  readonly limit: number;
  readonly filters: RequestLogFilters;
  readonly rows: readonly RequestRowView[];
  readonly next_cursor: string | null;
}

/** Answer of `DELETE /request-logs`. */
export interface LogsCleared {
  readonly ok: true;
  readonly deleted: number;
}

/** The request-log routes (bodies are administrators' reads). */
export interface RequestLogsApi {
  readonly "GET /request-logs/:id": Route<undefined, { readonly log: LogDetailView }>;
  /** One request by the uid its answer's `x-gateway-request-id` named (404 until it is written). */
  readonly "GET /requests/:uid": Route<undefined, { readonly request: RequestRowView }>;
  readonly "DELETE /request-logs": Route<undefined, LogsCleared>;
}
