import type { ChainAttempt, RequestLogInput, RequestRowInput, Store, UsageRow } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";
import type { ControlPlane } from "./control_plane.ts";
import type { DispatchObserver, RequestTrace } from "./dispatch.ts";
import { identityKeyId, identityLabel } from "./identity.ts";
import { LOG_BODY_LIMIT, truncateUtf8 } from "./truncate_utf8.ts";
import type { LongStrings } from "../long_strings.ts";
import { jsonHead } from "./sliced_json.ts";
import { isBigJson } from "../json_size.ts";

/**
 * Writes the request log: for every finished client request its index row (`requests`: tokens, cost, time
 * to first byte, the attempt chain), and while `server_request_logging` is on its bodies (`request_logs`,
 * pruned to the retention setting), linked by one uid. The writes go through the batched writer, so the
 * request path never waits for the database: the rows of one flush are inserted together and pruned once.
 * An index row whose attempts wait for a token estimate is written when the estimate is in. Credentials in
 * a failed request's error and response text are redacted before the row is stored.
 */
export class RequestLogObserver implements DispatchObserver {
  readonly #control: ControlPlane;
  readonly #writer: BatchedWriter;
  readonly #newId: () => string;
  /** Writes one flush's rows and prunes once; see BatchedWriter.collect. */
  readonly #insertLogs: (rows: RequestLogInput[]) => void;
  readonly #insertRequests: (rows: RequestRowInput[]) => void;

  /** `sweep` runs with each prune: the other retention sweeps that ride on it (the audit log's). */
  constructor(
    control: ControlPlane,
    store: Pick<Store, "requestLogs" | "requests">,
    writer: BatchedWriter,
    newId: () => string,
    sweep = () => {},
  ) {
    this.#control = control;
    this.#writer = writer;
    this.#newId = newId;
    this.#insertLogs = (rows) => {
      store.requestLogs.insert(rows);
      store.requestLogs.prune(control.settings.server_request_log_retention);
      sweep();
    };
    this.#insertRequests = (rows) => store.requests.insert(rows);
  }

  /** Nothing to do when a request starts. */
  started(_trace: RequestTrace): void {}

  /** Queues the rows of a finished request. */
  finished(trace: RequestTrace): void {
    const uid = trace.input.requestUid ?? this.#newId();
    this.#index(uid, trace);
    if (this.#control.settings.server_request_logging) this.#capture(uid, trace);
  }

  /** The index row, once every attempt's usage row is known (at once unless one waits for an estimate). */
  #index(uid: string, trace: RequestTrace): void {
    const ttftMs = trace.input.timing.firstByteMs;
    const error = trace.error === "" ? "" : this.#control.redactor.redact(trace.error).slice(0, 2000);
    const write = (rows: readonly (UsageRow | null)[]) =>
      this.#writer.collect(this.#insertRequests, requestRow(uid, trace, rows, ttftMs, error));
    const attempts = trace.attemptRows;
    if (attempts.every((row) => !(row instanceof Promise))) write(attempts as UsageRow[]);
    else void Promise.all(attempts).then(write);
  }

  #capture(uid: string, trace: RequestTrace): void {
    const request = truncateUtf8(logBodyText(trace.input.body, trace.input.longStrings));
    const failed = trace.status < 200 || trace.status >= 300;
    // Only a failed request's text can carry upstream error text; answers are not scanned (hot path).
    const response = truncateUtf8(
      failed && trace.responseBody !== ""
        ? this.#control.redactor.redact(trace.responseBody)
        : trace.responseBody,
    );
    const row: RequestLogInput = {
      uid,
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
    this.#writer.collect(this.#insertLogs, row);
  }
}

/** A finished request's index row: totals and the chain from its attempts' usage rows. */
function requestRow(
  uid: string,
  trace: RequestTrace,
  attempts: readonly (UsageRow | null)[],
  ttftMs: number,
  error: string,
): RequestRowInput {
  const rows = attempts.filter((row): row is UsageRow => row !== null);
  const last = rows.at(-1);
  let inputTokens = 0, outputTokens = 0, cost = 0;
  for (const row of rows) {
    inputTokens += row.inputTokens;
    outputTokens += row.outputTokens;
    cost += row.cost;
  }
  const chain: ChainAttempt[] = rows.map((row) => ({
    providerId: row.providerId,
    accountId: row.accountId,
    model: row.model,
    status: row.status,
    error: row.error.slice(0, 300),
    latencyMs: row.latencyMs,
  }));
  return {
    uid,
    ts: trace.startedAt,
    clientFormat: trace.input.surface,
    model: trace.model,
    providerId: last?.providerId ?? trace.providerId,
    accountId: last?.accountId ?? trace.providerId,
    clientKeyId: identityKeyId(trace.input.identity),
    clientKeyLabel: identityLabel(trace.input.identity),
    status: trace.status,
    streamed: trace.streamed,
    inputTokens,
    outputTokens,
    cost,
    ttftMs,
    latencyMs: trace.latencyMs,
    chain,
    error,
  };
}

/**
 * The body's JSON text for the log, which keeps its first LOG_BODY_LIMIT bytes. A big body's text is made
 * only that far (`jsonHead`; one character more, so the log still sees that it is cut): the kept bytes are
 * the same (a character takes at least a byte), and a 30 MiB body is never written whole (one step of 40-120
 * ms) nor encoded. Its long strings (long_strings.ts) are read from their first pieces.
 */
export function logBodyText(body: unknown, longStrings?: LongStrings): string {
  if (body === undefined) return "";
  if (typeof body === "string") return body;
  try {
    return isBigJson(body, LOG_BODY_LIMIT)
      ? jsonHead(body, LOG_BODY_LIMIT + 1, longStrings)
      : JSON.stringify(body);
  } catch {
    return String(body);
  }
}
