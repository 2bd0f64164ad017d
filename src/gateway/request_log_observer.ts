import type { RequestLogInput, Store } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";
import type { ControlPlane } from "./control_plane.ts";
import type { DispatchObserver, RequestTrace } from "./dispatch.ts";
import { identityLabel } from "./identity.ts";
import { truncateUtf8 } from "./truncate_utf8.ts";

/**
 * Captures one request log row per finished client request while `server_request_logging` is on, and
 * prunes the table to the retention setting. The writes go through the batched writer, so the request
 * path never waits for the database: the rows of one flush are inserted together and pruned once.
 * Credentials in a failed request's error and response text are redacted before the row is stored.
 */
export class RequestLogObserver implements DispatchObserver {
  readonly #control: ControlPlane;
  readonly #writer: BatchedWriter;
  /** Writes one flush's rows and prunes once; see BatchedWriter.collect. */
  readonly #insertRows: (rows: RequestLogInput[]) => void;

  constructor(control: ControlPlane, logs: Store["requestLogs"], writer: BatchedWriter) {
    this.#control = control;
    this.#writer = writer;
    this.#insertRows = (rows) => {
      logs.insert(rows);
      logs.prune(control.settings.server_request_log_retention);
    };
  }

  /** Nothing to do when a request starts. */
  started(_trace: RequestTrace): void {}

  /** Queues the row for a finished request. */
  finished(trace: RequestTrace): void {
    const settings = this.#control.settings;
    if (!settings.server_request_logging) return;
    const request = truncateUtf8(bodyText(trace.input.body));
    const failed = trace.status < 200 || trace.status >= 300;
    // Only a failed request's text can carry upstream error text; answers are not scanned (hot path).
    const response = truncateUtf8(
      failed && trace.responseBody !== ""
        ? this.#control.redactor.redact(trace.responseBody)
        : trace.responseBody,
    );
    const row: RequestLogInput = {
      ts: trace.startedAt,
      clientFormat: trace.input.logSurface ?? trace.input.surface,
      model: trace.model,
      providerId: trace.providerId,
      accountId: trace.providerId,
      status: trace.status,
      latencyMs: trace.latencyMs,
      streamed: trace.streamed,
      user: identityLabel(trace.input.identity),
      requestBody: request.text,
      responseBody: response.text,
      requestTruncated: request.truncated,
      responseTruncated: response.truncated,
      error: trace.error === "" ? "" : this.#control.redactor.redact(trace.error).slice(0, 4000),
      warnings: trace.warnings,
    };
    this.#writer.collect(this.#insertRows, row);
  }
}

function bodyText(body: unknown): string {
  if (body === undefined) return "";
  if (typeof body === "string") return body;
  try {
    return JSON.stringify(body);
  } catch {
    return String(body);
  }
}
