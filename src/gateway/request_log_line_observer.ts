import { type RequestLogFields, requestLogLine } from "../telemetry/mod.ts";
import type { DispatchObserver, RequestTrace } from "./request_lifecycle.ts";
import { errorType } from "./trace_facts.ts";

/**
 * Writes one structured JSON line per finished request (YAML `telemetry.log_requests`): its level, the
 * trace and span ids that join it to the exported trace (and to what the upstream received), and the
 * request number the request span carries as `gateway.request.id`. Error text is redacted.
 */
export class RequestLogLineObserver implements DispatchObserver {
  readonly #redact: (text: string) => string;
  readonly #write: (format: (journald: boolean) => string) => void;

  constructor(redact: (text: string) => string, write: (format: (journald: boolean) => string) => void) {
    this.#redact = redact;
    this.#write = write;
  }

  /** Nothing to do when a request starts. */
  started(_trace: RequestTrace): void {}

  /** Writes the request's line. */
  finished(trace: RequestTrace): void {
    const failed = trace.status >= 400 || trace.status === 0;
    const timing = trace.input.timing;
    const fields: RequestLogFields = {
      requestId: String(trace.id),
      traceId: trace.traceId,
      spanId: trace.spanId,
      sampled: trace.sampled,
      surface: trace.input.surface,
      model: trace.model,
      account: trace.providerId === "" ? undefined : trace.providerId,
      status: trace.status,
      durationMs: trace.latencyMs,
      timeToFirstTokenMs: trace.streamed && timing.firstByteMs >= 0 ? timing.firstByteMs : undefined,
      attempts: trace.attempts,
      inputTokens: trace.usage?.inputTotal,
      outputTokens: trace.usage?.output,
      errorType: failed ? errorType(trace.status) : undefined,
      errorMessage: failed && trace.error !== "" ? trace.error : undefined,
      warnings: trace.warnings.map((w) => w.code),
    };
    this.#write((journald) => requestLogLine(fields, this.#redact, journald));
  }
}
