import type { Database } from "./database.ts";
import { type InsertShape, RowInserter } from "./row_inserter.ts";

/** Something translation could not express for a logged request (a stable code and a sentence). */
export interface RequestLogWarning {
  readonly code: string;
  readonly message: string;
  /** The field, part or value concerned, when the warning's producer gave one. */
  readonly detail?: Readonly<Record<string, string | number | boolean>>;
}

/** One captured request, as written by the request-log observer. */
export interface RequestLogInput {
  /** The request's index row in `requests` (the same uid). */
  readonly uid: string;
  readonly ts: number;
  readonly clientFormat: string;
  readonly model: string;
  readonly providerId: string;
  readonly accountId: string;
  readonly status: number;
  readonly latencyMs: number;
  readonly streamed: boolean;
  readonly user: string;
  readonly requestBody: string;
  readonly responseBody: string;
  readonly requestTruncated: boolean;
  readonly responseTruncated: boolean;
  readonly error: string;
  readonly warnings: readonly RequestLogWarning[];
}

/** A stored request log row without its bodies. */
export interface RequestLogSummary {
  readonly id: number;
  /** The request's index row in `requests`. */
  readonly uid: string;
  readonly ts: number;
  readonly clientFormat: string;
  readonly model: string;
  readonly providerId: string;
  readonly accountId: string;
  readonly status: number;
  readonly latencyMs: number;
  readonly streamed: boolean;
  readonly user: string;
  readonly error: string;
  readonly warnings: readonly RequestLogWarning[];
}

/** A stored request log row with its bodies. */
export interface RequestLogRecord extends RequestLogSummary {
  readonly requestBody: string;
  readonly responseBody: string;
  readonly requestTruncated: boolean;
  readonly responseTruncated: boolean;
}

interface Row {
  id: number;
  uid: string;
  ts: number;
  client_format: string;
  model: string;
  provider_id: string;
  account_id: string;
  status: number;
  latency_ms: number;
  streamed: number;
  user: string;
  error: string;
  warnings: string;
  request_body?: string;
  response_body?: string;
  request_truncated?: number;
  response_truncated?: number;
}

const INSERT: InsertShape = {
  table: "request_logs",
  columns: [
    "uid",
    "ts",
    "client_format",
    "model",
    "provider_id",
    "account_id",
    "status",
    "latency_ms",
    "streamed",
    '"user"',
    "request_body",
    "response_body",
    "error",
    "request_truncated",
    "response_truncated",
    "warnings",
  ],
  recordsetTypes: `uid text, ts bigint, client_format text, model text, provider_id text, account_id text,
    status bigint, latency_ms bigint, streamed bigint, "user" text, request_body text, response_body text,
    error text, request_truncated bigint, response_truncated bigint, warnings text`,
  // Bodies are up to 64 KB each, so a chunk stays under about 8 MB.
  chunk: 64,
};

/** One row as stored, keyed by column (the same values the SQLite statement binds). */
function storedRow(log: RequestLogInput) {
  return {
    uid: log.uid,
    ts: log.ts,
    client_format: log.clientFormat,
    model: log.model,
    provider_id: log.providerId,
    account_id: log.accountId,
    status: log.status,
    latency_ms: Math.max(0, Math.round(log.latencyMs)),
    streamed: log.streamed ? 1 : 0,
    user: log.user,
    request_body: log.requestBody,
    response_body: log.responseBody,
    error: log.error,
    request_truncated: log.requestTruncated ? 1 : 0,
    response_truncated: log.responseTruncated ? 1 : 0,
    warnings: JSON.stringify(log.warnings),
  };
}

/** The request_logs table: captured requests, pruned to the retention setting. */
export class RequestLogsRepo {
  readonly #db: Database;
  readonly #rows: RowInserter<ReturnType<typeof storedRow>>;

  /** `postgres` says the database is PostgreSQL, where rows are inserted from one JSON parameter. */
  constructor(db: Database, postgres = false) {
    this.#db = db;
    this.#rows = new RowInserter(db, postgres, INSERT);
  }

  /** Inserts rows (call inside the writer's transaction), with one prepared statement for the batch. */
  insert(logs: readonly RequestLogInput[]): void {
    this.#rows.insert(logs.map(storedRow), (r) => Number.isFinite(r.ts + r.status + r.latency_ms));
  }

  /** Deletes all but the newest `keep` rows (inside a batch of the batched writer, so it reports nothing). */
  prune(keep: number): void {
    this.#db.prepare(
      "DELETE FROM request_logs WHERE id <= (SELECT id FROM request_logs ORDER BY id DESC LIMIT 1 OFFSET ?)",
    ).run(keep);
  }

  /** One row with bodies. */
  get(id: number): RequestLogRecord | undefined {
    const row = this.#db.prepare("SELECT * FROM request_logs WHERE id = ?").get(id) as unknown as
      | Row
      | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Every row with bodies, newest first. */
  all(): RequestLogRecord[] {
    return (this.#db.prepare("SELECT * FROM request_logs ORDER BY id DESC").all() as unknown as Row[])
      .map(toRecord);
  }

  /** Number of rows. */
  count(): number {
    return Number((this.#db.prepare("SELECT count(*) AS n FROM request_logs").get() as { n: number }).n);
  }

  /** Deletes every row; returns how many went. */
  clear(): number {
    return Number(this.#db.prepare("DELETE FROM request_logs").run().changes);
  }
}

function toSummary(r: Row): RequestLogSummary {
  return {
    id: Number(r.id),
    uid: r.uid,
    ts: Number(r.ts),
    clientFormat: r.client_format,
    model: r.model,
    providerId: r.provider_id,
    accountId: r.account_id,
    status: Number(r.status),
    latencyMs: Number(r.latency_ms),
    streamed: r.streamed === 1,
    user: r.user,
    error: r.error,
    warnings: parseWarnings(r.warnings),
  };
}

function toRecord(r: Row): RequestLogRecord {
  return {
    ...toSummary(r),
    requestBody: r.request_body ?? "",
    responseBody: r.response_body ?? "",
    requestTruncated: r.request_truncated === 1,
    responseTruncated: r.response_truncated === 1,
  };
}

/** The stored warnings; rows written before the column existed read as none. */
function parseWarnings(text: string | undefined): RequestLogWarning[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(isWarning) : [];
  } catch {
    return [];
  }
}

function isWarning(value: unknown): value is RequestLogWarning {
  const w = value as Partial<RequestLogWarning> | null;
  return typeof w?.code === "string" && typeof w.message === "string";
}
