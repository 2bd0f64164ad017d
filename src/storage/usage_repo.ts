import type { StatementSync } from "node:sqlite";
import type { Database } from "./database.ts";

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
}

/** The usage table. Writes come in batches from the usage writer. */
export class UsageRepo {
  readonly #db: Database;
  #insertStatement: StatementSync | undefined;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Inserts rows (call inside a transaction for batches). */
  insert(rows: readonly UsageRow[]): void {
    // Prepared once: this runs for every attempt of every request.
    const statement = this.#insertStatement ??= this.#db.prepare(
      `INSERT INTO usage (ts, client_format, request_model, model, provider_id, account_id, client_key_id,
         client_key_label, status, input_tokens, cache_read_tokens, cache_creation_tokens, output_tokens,
         reasoning_tokens, estimated, cost, priced, latency_ms, streamed, error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of rows) {
      statement.run(
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

  /** Number of rows (tests and overview). */
  count(): number {
    return Number((this.#db.prepare("SELECT count(*) AS n FROM usage").get() as { n: number }).n);
  }
}
