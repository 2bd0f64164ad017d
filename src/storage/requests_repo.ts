import type { Database } from "./database.ts";
import { type Percentiles, readPercentiles } from "./percentiles.ts";
import { type InsertShape, RowInserter } from "./row_inserter.ts";
import type { SqlValue } from "./sql.ts";

/** One attempt of a request's chain, oldest first. */
export interface ChainAttempt {
  readonly providerId: string;
  readonly accountId: string;
  readonly model: string;
  readonly status: number;
  readonly error: string;
  readonly latencyMs: number;
}

/** One client request as the request log indexes it (usage keeps one row per attempt). */
export interface RequestRowInput {
  /** Links the request to its captured bodies in request_logs (when logging was on). */
  readonly uid: string;
  readonly ts: number;
  readonly clientFormat: string;
  readonly model: string;
  /** The provider and account that served the request, or the last one tried. */
  readonly providerId: string;
  readonly accountId: string;
  readonly clientKeyId: number | null;
  readonly clientKeyLabel: string;
  readonly status: number;
  readonly streamed: boolean;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost: number;
  /** Milliseconds to the first byte of the answer; -1 when none was sent. */
  readonly ttftMs: number;
  readonly latencyMs: number;
  readonly chain: readonly ChainAttempt[];
  readonly error: string;
}

/** A stored request: its index row, and whether its bodies are still kept (the request_logs id). */
export interface RequestRow extends RequestRowInput {
  readonly id: number;
  /** The request_logs row holding its bodies, or null when they were not captured or are pruned. */
  readonly logId: number | null;
}

/** The status classes a filter can ask for (2 = 2xx, …; 0 = no status, e.g. a network failure). */
export type StatusClass = 0 | 1 | 2 | 3 | 4 | 5;

/** Which requests a page holds; every field narrows, none set is every request. */
export interface RequestFilter {
  /** Inclusive lower and exclusive upper bound of `ts` (epoch ms). */
  readonly from?: number;
  readonly to?: number;
  readonly model?: string;
  readonly providerId?: string;
  readonly accountId?: string;
  /** A key id, or null for requests made without a key. */
  readonly clientKeyId?: number | null;
  readonly statusClass?: StatusClass;
  readonly clientFormat?: string;
  readonly streamed?: boolean;
  /**
   * Text that must occur in the captured request or response body (case-insensitive). Only the bodies kept
   * in request_logs (the newest `server_request_log_retention`, at most 5,000) are searched.
   */
  readonly text?: string;
}

/** Where the next page starts: after the row with this (ts, id) in newest-first order. */
export interface RequestCursor {
  readonly ts: number;
  readonly id: number;
}

/** A page of requests and where the next one starts (null when this was the last). */
export interface RequestPage {
  readonly rows: readonly RequestRow[];
  readonly next: RequestCursor | null;
}

const SELECT_COLUMNS = `r.id, r.uid, r.ts, r.client_format, r.model, r.provider_id, r.account_id,
  r.client_key_id, r.client_key_label, r.status, r.streamed, r.input_tokens, r.output_tokens, r.cost, r.ttft_ms,
  r.latency_ms, r.chain, r.error, l.id AS log_id`;

/** Every request with its kept bodies' row, if any. */
const ALL_REQUESTS = "requests r LEFT JOIN request_logs l ON l.uid = r.uid AND r.uid <> ''";

const INSERT: InsertShape = {
  table: "requests",
  columns: [
    "uid",
    "ts",
    "client_format",
    "model",
    "provider_id",
    "account_id",
    "client_key_id",
    "client_key_label",
    "status",
    "status_class",
    "streamed",
    "input_tokens",
    "output_tokens",
    "cost",
    "ttft_ms",
    "latency_ms",
    "attempts",
    "chain",
    "error",
  ],
  recordsetTypes: `uid text, ts bigint, client_format text, model text, provider_id text, account_id text,
    client_key_id bigint, client_key_label text, status bigint, status_class bigint, streamed bigint,
    input_tokens bigint, output_tokens bigint, cost double precision, ttft_ms bigint, latency_ms bigint,
    attempts bigint, chain text, error text`,
  // A chain is a few hundred bytes.
  chunk: 256,
};

interface Row {
  id: number;
  uid: string;
  ts: number;
  client_format: string;
  model: string;
  provider_id: string;
  account_id: string;
  client_key_id: number | null;
  client_key_label: string;
  status: number;
  streamed: number;
  input_tokens: number;
  output_tokens: number;
  cost: number;
  ttft_ms: number;
  latency_ms: number;
  chain: string;
  error: string;
  log_id: number | null;
}

/** The class of an HTTP status (0 for none: the request never got one). */
export function statusClassOf(status: number): number {
  return status >= 100 && status <= 599 ? Math.floor(status / 100) : 0;
}

function storedRow(r: RequestRowInput) {
  return {
    uid: r.uid,
    ts: r.ts,
    client_format: r.clientFormat,
    model: r.model,
    provider_id: r.providerId,
    account_id: r.accountId,
    client_key_id: r.clientKeyId,
    client_key_label: r.clientKeyLabel,
    status: r.status,
    status_class: statusClassOf(r.status),
    streamed: r.streamed ? 1 : 0,
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    cost: r.cost,
    ttft_ms: Math.round(r.ttftMs),
    latency_ms: Math.max(0, Math.round(r.latencyMs)),
    attempts: r.chain.length,
    chain: JSON.stringify(r.chain),
    error: r.error,
  };
}

/**
 * The requests table: the request log's index, one row per client request, filtered a page at a time.
 * Pages are keyset pages in (ts, id) order, newest first: each filter has an index ending in ts, so a page
 * costs one ordered index walk however deep it is, never an OFFSET over the rows before it.
 */
export class RequestsRepo {
  readonly #db: Database;
  readonly #postgres: boolean;
  readonly #rows: RowInserter<ReturnType<typeof storedRow>>;

  /** `postgres` says the database is PostgreSQL, where rows are inserted from one JSON parameter. */
  constructor(db: Database, postgres = false) {
    this.#db = db;
    this.#postgres = postgres;
    this.#rows = new RowInserter(db, postgres, INSERT);
  }

  /** Inserts rows (call inside the writer's transaction). */
  insert(rows: readonly RequestRowInput[]): void {
    this.#rows.insert(
      rows.map(storedRow),
      (r) => Number.isFinite(r.ts + r.status + r.cost + r.latency_ms + r.ttft_ms),
    );
  }

  /**
   * p50 and p95 time to first byte (nearest rank) of successful requests that sent one, since `sinceMs`,
   * per model or provider, most requests first. One row per client request, so a fallback's failed
   * attempts do not count as a slow start of their own.
   */
  ttftPercentiles(sinceMs: number, by: "model" | "provider", limit: number): Percentiles[] {
    return readPercentiles(
      this.#db,
      {
        table: "requests",
        value: "ttft_ms",
        key: by === "model" ? "model" : "provider_id",
        where: "status BETWEEN 200 AND 299 AND ttft_ms >= 0",
      },
      sinceMs,
      limit,
    );
  }

  page(filter: RequestFilter, limit: number, cursor: RequestCursor | null = null): RequestPage {
    const { clause, args } = whereOf(filter, cursor);
    const rows = this.#db.prepare(
      `SELECT ${SELECT_COLUMNS} FROM ${this.#source(filter)} ${clause} ORDER BY r.ts DESC, r.id DESC LIMIT ?`,
    ).all(...args, limit + 1) as unknown as Row[];
    const more = rows.length > limit;
    const page = (more ? rows.slice(0, limit) : rows).map(toRequestRow);
    const last = page.at(-1);
    return { rows: page, next: more && last ? { ts: last.ts, id: last.id } : null };
  }

  /**
   * The rows a page reads. A text search starts from the kept bodies (at most 5,000), then finds their
   * requests by uid: left to itself, SQLite would walk a filter's index over up to a million requests and
   * look each one up in the bodies. CROSS JOIN is SQLite's way to fix the join order; PostgreSQL's planner
   * picks it from its statistics (and has no CROSS JOIN … ON).
   */
  #source(filter: RequestFilter): string {
    if (filter.text === undefined || filter.text === "") return ALL_REQUESTS;
    return `request_logs l ${this.#postgres ? "JOIN" : "CROSS JOIN"} requests r ON r.uid = l.uid`;
  }

  /**
   * Requests matching `filter` written after the row `afterId`, oldest first (`gateway logs tail`): ids
   * grow with each write, so a follower that remembers the last id it printed sees every row once.
   */
  writtenAfter(filter: RequestFilter, afterId: number, limit: number): RequestRow[] {
    const { clause, args } = whereOf(filter, null);
    const where = clause === "" ? "WHERE r.id > ?" : `${clause} AND r.id > ?`;
    return (this.#db.prepare(
      `SELECT ${SELECT_COLUMNS} FROM ${this.#source(filter)} ${where} ORDER BY r.id LIMIT ?`,
    ).all(...args, afterId, limit) as unknown as Row[]).map(toRequestRow);
  }

  /** The id of the newest row written (0 when none): where a follower starts. */
  lastId(): number {
    const row = this.#db.prepare("SELECT max(id) AS id FROM requests").get() as { id: number | null };
    return Number(row.id ?? 0);
  }

  /** One request by its uid (the `x-gateway-request-id` its client got), or undefined while unwritten. */
  byUid(uid: string): RequestRow | undefined {
    const row = this.#db.prepare(
      `SELECT ${SELECT_COLUMNS} FROM ${ALL_REQUESTS} WHERE r.uid = ?`,
    ).get(uid) as unknown as Row | undefined;
    return row ? toRequestRow(row) : undefined;
  }

  /** One request by id. */
  get(id: number): RequestRow | undefined {
    const row = this.#db.prepare(
      `SELECT ${SELECT_COLUMNS} FROM ${ALL_REQUESTS} WHERE r.id = ?`,
    ).get(id) as unknown as Row | undefined;
    return row ? toRequestRow(row) : undefined;
  }

  /** Number of rows (tests and the overview). */
  count(): number {
    return Number((this.#db.prepare("SELECT count(*) AS n FROM requests").get() as { n: number }).n);
  }

  /** Deletes every row; returns how many went. */
  clear(): number {
    return Number(this.#db.prepare("DELETE FROM requests").run().changes);
  }
}

/** The WHERE clause of a filtered page; values are always bound, never spliced into the text. */
function whereOf(filter: RequestFilter, cursor: RequestCursor | null): { clause: string; args: SqlValue[] } {
  const where: string[] = [];
  const args: SqlValue[] = [];
  const equal = (column: string, value: SqlValue | undefined) => {
    if (value === undefined) return;
    where.push(`r.${column} = ?`);
    args.push(value);
  };
  if (filter.from !== undefined) {
    where.push("r.ts >= ?");
    args.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push("r.ts < ?");
    args.push(filter.to);
  }
  equal("model", filter.model);
  equal("provider_id", filter.providerId);
  equal("account_id", filter.accountId);
  if (filter.clientKeyId === null) where.push("r.client_key_id IS NULL");
  else equal("client_key_id", filter.clientKeyId);
  equal("status_class", filter.statusClass);
  equal("client_format", filter.clientFormat);
  if (filter.streamed !== undefined) equal("streamed", filter.streamed ? 1 : 0);
  if (filter.text !== undefined && filter.text !== "") {
    // LIKE over lower-cased text means the same on SQLite and PostgreSQL; it scans only the kept bodies
    // (request_logs holds at most 5,000 rows: see RequestsRepo.#source).
    const pattern = `%${filter.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      `l.uid <> '' AND (lower(l.request_body) LIKE ? ESCAPE '\\' OR lower(l.response_body) LIKE ? ESCAPE '\\')`,
    );
    args.push(pattern, pattern);
  }
  if (cursor !== null) {
    where.push("(r.ts, r.id) < (?, ?)");
    args.push(cursor.ts, cursor.id);
  }
  return { clause: where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`, args };
}

function toRequestRow(r: Row): RequestRow {
  return {
    id: Number(r.id),
    uid: r.uid,
    ts: Number(r.ts),
    clientFormat: r.client_format,
    model: r.model,
    providerId: r.provider_id,
    accountId: r.account_id,
    clientKeyId: r.client_key_id === null ? null : Number(r.client_key_id),
    clientKeyLabel: r.client_key_label,
    status: Number(r.status),
    streamed: Number(r.streamed) === 1,
    inputTokens: Number(r.input_tokens),
    outputTokens: Number(r.output_tokens),
    cost: Number(r.cost),
    ttftMs: Number(r.ttft_ms),
    latencyMs: Number(r.latency_ms),
    chain: parseChain(r.chain),
    error: r.error,
    logId: r.log_id === null ? null : Number(r.log_id),
  };
}

/** The stored chain; a row written before chains existed (backfilled from a log row) reads as none. */
function parseChain(text: string): ChainAttempt[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value as ChainAttempt[] : [];
  } catch {
    return [];
  }
}
