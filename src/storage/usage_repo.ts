import type { Database } from "./database.ts";
import { chunksOf, recordsetJson } from "./recordset_json.ts";
import type { SqlStatement, SqlValue } from "./sql.ts";

/** One usage row: one attempt outcome (success or failure). */
export interface UsageRow {
  readonly ts: number;
  readonly clientFormat: string;
  readonly requestModel: string;
  readonly model: string;
  readonly providerId: string;
  readonly accountId: string;
  readonly clientKeyId: number | null;
  readonly clientKeyLabel: string;
  readonly status: number;
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheCreationTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly estimated: boolean;
  readonly cost: number;
  readonly priced: boolean;
  readonly latencyMs: number;
  readonly streamed: boolean;
  readonly error: string;
  /** What the work was: chat, completion, embedding, image, audio or rerank (absent: chat). */
  readonly kind?: string;
}

const DAY_MS = 86_400_000;

/** One day/model/provider/account/key/kind group of a batch, summed for the daily rollup. */
interface DailyGroup {
  readonly key: readonly [number, string, string, string, number, string, string];
  requests: number;
  ok: number;
  clientErrors: number;
  serverErrors: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  cost: number;
  unpriced: number;
}

/** Statement sizes a batch of usage rows is cut into, largest first (ends with 1, so every row fits). */
const INSERT_CHUNKS = [64, 8, 1] as const;

const USAGE_COLUMNS = "ts, client_format, request_model, model, provider_id, account_id, client_key_id, " +
  "client_key_label, status, input_tokens, cache_read_tokens, cache_creation_tokens, output_tokens, " +
  "reasoning_tokens, estimated, cost, priced, latency_ms, streamed, error, kind";
const USAGE_ROW_PLACEHOLDERS = `(${USAGE_COLUMNS.split(",").map(() => "?").join(", ")})`;

/** One row's values in USAGE_COLUMNS order. */
function pushUsageParams(params: SqlValue[], r: UsageRow): void {
  params.push(
    r.ts,
    r.clientFormat,
    r.requestModel,
    r.model,
    r.providerId,
    r.accountId,
    r.clientKeyId,
    r.clientKeyLabel,
    r.status,
    r.inputTokens,
    r.cacheReadTokens,
    r.cacheCreationTokens,
    r.outputTokens,
    r.reasoningTokens,
    r.estimated ? 1 : 0,
    r.cost,
    r.priced ? 1 : 0,
    r.latencyMs,
    r.streamed ? 1 : 0,
    r.error,
    r.kind ?? "chat",
  );
}

/**
 * PostgreSQL's insert: a chunk of rows travels as one JSON text parameter (UsageRow's own keys, see
 * recordset_json.ts), which json_to_recordset turns back into typed columns. As 20 parameters a row, the
 * driver's encoding cost the bridge thread about 8 µs a row. `::text` keeps the driver from serialising the
 * text as JSON again.
 */
const USAGE_JSON_INSERT = `INSERT INTO usage (${USAGE_COLUMNS})
  SELECT r."ts", r."clientFormat", r."requestModel", r."model", r."providerId", r."accountId", r."clientKeyId",
    r."clientKeyLabel", r."status", r."inputTokens", r."cacheReadTokens", r."cacheCreationTokens",
    r."outputTokens", r."reasoningTokens", r."estimated"::int, r."cost", r."priced"::int, r."latencyMs",
    r."streamed"::int, r."error", coalesce(r."kind", 'chat')
  FROM json_to_recordset(?::text::json) AS r("ts" bigint, "clientFormat" text, "requestModel" text,
    "model" text, "providerId" text, "accountId" text, "clientKeyId" bigint, "clientKeyLabel" text,
    "status" bigint, "inputTokens" bigint, "cacheReadTokens" bigint, "cacheCreationTokens" bigint,
    "outputTokens" bigint, "reasoningTokens" bigint, "estimated" boolean, "cost" double precision,
    "priced" boolean, "latencyMs" bigint, "streamed" boolean, "error" text, "kind" text)`;

/** Whether every number of `rows` is finite (else recordsetJson must take its slow way). */
function finiteNumbers(rows: readonly UsageRow[]): boolean {
  for (const r of rows) {
    // Any NaN or ±Infinity makes the sum non-finite (an overflow only takes the slow way needlessly).
    const sum = r.ts + (r.clientKeyId ?? 0) + r.status + r.inputTokens + r.cacheReadTokens +
      r.cacheCreationTokens + r.outputTokens + r.reasoningTokens + r.cost + r.latencyMs;
    if (!Number.isFinite(sum)) return false;
  }
  return true;
}

/** The usage table. Writes come in batches from the usage writer. */
export class UsageRepo {
  readonly #db: Database;
  readonly #postgres: boolean;
  /** Inserts of 64, 8 and 1 rows, prepared on first use: this runs for every attempt of every request. */
  readonly #insertStatements = new Map<number, SqlStatement>();
  #jsonStatement: SqlStatement | undefined;
  #rollupStatement: SqlStatement | undefined;

  /** `postgres` says the database is PostgreSQL, where rows are inserted from one JSON parameter. */
  constructor(db: Database, postgres = false) {
    this.#db = db;
    this.#postgres = postgres;
  }

  /**
   * Inserts rows and adds them to the daily rollup (call inside a transaction for batches). The rollup
   * gets one upsert per day/model/provider/account/key group of the batch, not one per row.
   */
  insert(rows: readonly UsageRow[]): void {
    this.#insertRows(rows);
    this.#addToRollup(rows);
  }

  #insertRows(rows: readonly UsageRow[]): void {
    if (this.#postgres) {
      const statement = this.#jsonStatement ??= this.#db.prepare(USAGE_JSON_INSERT);
      // RECORDSET_CHUNK rows (about 230 KB of JSON) a statement: each costs the bridge ~50 µs of its own.
      for (const chunk of chunksOf(rows)) statement.run(recordsetJson(chunk, finiteNumbers(chunk)));
      return;
    }
    // Rows go in statements of a few fixed sizes, so there are at most three statement texts to prepare
    // once, and a batch of n rows costs about n / 64 statements instead of n.
    let at = 0;
    for (const size of INSERT_CHUNKS) {
      while (rows.length - at >= size) {
        const params: SqlValue[] = [];
        for (let i = at; i < at + size; i++) pushUsageParams(params, rows[i]);
        this.#insertStatement(size).run(...params);
        at += size;
      }
    }
  }

  /** The insert of `size` rows, prepared once per size. */
  #insertStatement(size: number): SqlStatement {
    let statement = this.#insertStatements.get(size);
    if (statement === undefined) {
      const values = Array.from({ length: size }, () => USAGE_ROW_PLACEHOLDERS).join(", ");
      statement = this.#db.prepare(`INSERT INTO usage (${USAGE_COLUMNS}) VALUES ${values}`);
      this.#insertStatements.set(size, statement);
    }
    return statement;
  }

  #addToRollup(rows: readonly UsageRow[]): void {
    const groups = new Map<string, DailyGroup>();
    for (const r of rows) {
      const day = Math.floor(r.ts / DAY_MS);
      const keyId = r.clientKeyId ?? 0;
      const kind = r.kind ?? "chat";
      const id =
        `${day}\u0000${r.model}\u0000${r.providerId}\u0000${r.accountId}\u0000${keyId}\u0000${r.clientKeyLabel}\u0000${kind}`;
      let group = groups.get(id);
      if (group === undefined) {
        group = {
          key: [day, r.model, r.providerId, r.accountId, keyId, r.clientKeyLabel, kind],
          requests: 0,
          ok: 0,
          clientErrors: 0,
          serverErrors: 0,
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheCreation: 0,
          cost: 0,
          unpriced: 0,
        };
        groups.set(id, group);
      }
      group.requests++;
      if (r.status >= 200 && r.status <= 299) group.ok++;
      else if (r.status >= 400 && r.status <= 499) group.clientErrors++;
      else if (r.status >= 500 || r.status < 200) group.serverErrors++;
      group.input += r.inputTokens;
      group.output += r.outputTokens;
      group.cacheRead += r.cacheReadTokens;
      group.cacheCreation += r.cacheCreationTokens;
      group.cost += r.cost;
      if (!r.priced && r.inputTokens + r.outputTokens > 0) group.unpriced++;
    }
    const statement = this.#rollupStatement ??= this.#db.prepare(
      `INSERT INTO usage_daily (day, model, provider_id, account_id, client_key_id, client_key_label, kind,
         requests, ok_requests, client_errors, server_errors, input_tokens, output_tokens, cache_read_tokens,
         cache_creation_tokens, cost, unpriced_requests)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, model, provider_id, account_id, client_key_id, client_key_label, kind) DO UPDATE SET
         requests = usage_daily.requests + excluded.requests, ok_requests = usage_daily.ok_requests + excluded.ok_requests,
         client_errors = usage_daily.client_errors + excluded.client_errors,
         server_errors = usage_daily.server_errors + excluded.server_errors,
         input_tokens = usage_daily.input_tokens + excluded.input_tokens, output_tokens = usage_daily.output_tokens + excluded.output_tokens,
         cache_read_tokens = usage_daily.cache_read_tokens + excluded.cache_read_tokens,
         cache_creation_tokens = usage_daily.cache_creation_tokens + excluded.cache_creation_tokens,
         cost = usage_daily.cost + excluded.cost, unpriced_requests = usage_daily.unpriced_requests + excluded.unpriced_requests`,
    );
    for (const g of groups.values()) {
      statement.run(
        ...g.key,
        g.requests,
        g.ok,
        g.clientErrors,
        g.serverErrors,
        g.input,
        g.output,
        g.cacheRead,
        g.cacheCreation,
        g.cost,
        g.unpriced,
      );
    }
  }

  /** Spend since `sinceMs`, per client key id (null key = keyless requests) and in total. */
  spendSince(sinceMs: number): { total: number; byKey: Map<number, number> } {
    const rows = this.#db.prepare(
      "SELECT client_key_id AS k, sum(cost) AS c FROM usage WHERE ts >= ? GROUP BY client_key_id",
    ).all(sinceMs) as unknown as { k: number | null; c: number }[];
    const byKey = new Map<number, number>();
    let total = 0;
    for (const r of rows) {
      total += r.c;
      if (r.k !== null) byKey.set(Number(r.k), r.c);
    }
    return { total, byKey };
  }

  /** Attempts and their tokens (input + output) of one account since `sinceMs` (quota counts at start). */
  accountSince(accountId: string, sinceMs: number): { requests: number; tokens: number } {
    const row = this.#db.prepare(
      `SELECT count(*) AS n, coalesce(sum(input_tokens + output_tokens), 0) AS t FROM usage
       WHERE ts >= ? AND provider_id = ?`,
    ).get(sinceMs, accountId) as { n: number; t: number };
    return { requests: Number(row.n), tokens: Number(row.t) };
  }

  /** Number of rows (tests and overview). */
  count(): number {
    return Number((this.#db.prepare("SELECT count(*) AS n FROM usage").get() as { n: number }).n);
  }
}
