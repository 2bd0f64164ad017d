/**
 * One structured JSON line per request (issue 29, item 6), for journald and log shippers: the level,
 * the ids that join it to the trace (`trace_id`, `span_id`) and to the request-log row (`request_id`),
 * and what happened. Pure: the caller writes the line (stderr) and passes the redactor. JSON escapes
 * line breaks, so an upstream error text never splits the line. Under journald the syslog priority
 * prefix (`<6>`) comes first, as in `src/log.ts`: journald strips it and records the priority, so the
 * journal keeps pure JSON.
 */

/** What one finished request reports. */
export interface RequestLogFields {
  readonly requestId: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  readonly surface: string;
  readonly model: string;
  readonly provider?: string;
  readonly account?: string;
  /** The HTTP status the client received. */
  readonly status: number;
  readonly durationMs: number;
  readonly timeToFirstTokenMs?: number;
  readonly attempts: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly costUsd?: number;
  readonly errorType?: string;
  /** Redacted before it is written. */
  readonly errorMessage?: string;
  readonly warnings?: readonly string[];
}

/** Log levels and the syslog priorities journald records for them. */
const PRIORITY = { error: 3, warn: 4, info: 6 } as const;

/** The level a request logs at: error for 5xx, warn for 4xx, info otherwise. */
export function requestLogLevel(status: number): keyof typeof PRIORITY {
  return status >= 500 ? "error" : status >= 400 ? "warn" : "info";
}

/** The request as one JSON line (no trailing newline). */
export function requestLogLine(
  f: RequestLogFields,
  redact: (text: string) => string,
  journald: boolean,
): string {
  const level = requestLogLevel(f.status);
  const record: Record<string, unknown> = {
    level,
    msg: "request",
    request_id: f.requestId,
    trace_id: f.traceId,
    span_id: f.spanId,
    trace_sampled: f.sampled,
    surface: f.surface,
    model: f.model,
    provider: f.provider,
    account: f.account,
    status: f.status,
    duration_ms: Math.round(f.durationMs),
    ttft_ms: f.timeToFirstTokenMs === undefined ? undefined : Math.round(f.timeToFirstTokenMs),
    attempts: f.attempts,
    input_tokens: f.inputTokens,
    output_tokens: f.outputTokens,
    cost_usd: f.costUsd,
    error_type: f.errorType,
    error: f.errorMessage === undefined ? undefined : redact(f.errorMessage),
    warnings: f.warnings !== undefined && f.warnings.length > 0 ? f.warnings : undefined,
  };
  // JSON.stringify leaves out undefined fields, so absent facts cost nothing on the line.
  const json = JSON.stringify(record);
  return journald ? `<${PRIORITY[level]}>${json}` : json;
}
