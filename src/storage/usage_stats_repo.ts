import type { Database } from "./database.ts";
import { type Percentiles, readPercentiles } from "./percentiles.ts";

/** Milliseconds in a UTC day: the rollup's bucket size. */
export const DAY_MS = 86_400_000;

/** Summed usage of a set of rows. */
export interface UsageTotals {
  readonly requests: number;
  readonly okRequests: number;
  readonly clientErrors: number;
  readonly serverErrors: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheCreationTokens: number;
  readonly cost: number;
}

/** Totals of one UTC day (day = days since the epoch). */
export interface DailyTotals extends UsageTotals {
  readonly day: number;
}

/** Totals of one UTC hour (hour = hours since the epoch). */
export interface HourlyTotals extends UsageTotals {
  readonly hour: number;
}

/** One client key's usage: per day, per model, and per model per day. */
export interface KeyUsage {
  readonly daily: DailyTotals[];
  readonly models: GroupTotals[];
  readonly modelDaily: (DailyTotals & { readonly model: string })[];
}

/** Totals of one value of a breakdown dimension. */
export interface GroupTotals extends UsageTotals {
  readonly key: string;
}

/** Totals of one client key (id 0 = requests without a DB key; label tells them apart). */
export interface ClientTotals extends UsageTotals {
  readonly keyId: number;
  readonly label: string;
}

/** A model used with tokens but without a price. */
export interface UnpricedModel {
  readonly model: string;
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Nearest-rank latency percentiles of one model or provider's successful requests. */
export type LatencyPercentiles = Percentiles;

/** Columns of usage_daily a breakdown can group by. */
export type UsageDimension = "model" | "provider" | "account" | "client_key" | "kind";

/**
 * Narrows a read to one kind of work (`chat`, `embedding`, …; see src/accounting/usage_kind.ts), or null
 * for all. Both usage and usage_daily have the column.
 */
export type KindFilter = string | null;

/** The `AND kind = ?` of a kind filter and its argument (nothing for all kinds). */
function byKind(kind: KindFilter): { and: string; args: string[] } {
  return kind === null ? { and: "", args: [] } : { and: " AND kind = ?", args: [kind] };
}

const SUMS = `coalesce(sum(requests), 0) AS requests, coalesce(sum(ok_requests), 0) AS ok,
  coalesce(sum(client_errors), 0) AS c4, coalesce(sum(server_errors), 0) AS c5,
  coalesce(sum(input_tokens), 0) AS inp, coalesce(sum(output_tokens), 0) AS outp,
  coalesce(sum(cache_read_tokens), 0) AS cr, coalesce(sum(cache_creation_tokens), 0) AS cc,
  coalesce(sum(cost), 0) AS cost`;

type SumRow = Record<string, number | string | null>;

function totalsOf(r: SumRow): UsageTotals {
  return {
    requests: Number(r.requests),
    okRequests: Number(r.ok),
    clientErrors: Number(r.c4),
    serverErrors: Number(r.c5),
    inputTokens: Number(r.inp),
    outputTokens: Number(r.outp),
    cacheReadTokens: Number(r.cr),
    cacheCreationTokens: Number(r.cc),
    cost: Number(r.cost),
  };
}

function dimensionColumn(dimension: UsageDimension): string {
  switch (dimension) {
    case "model":
      return "model";
    case "provider":
      return "provider_id";
    case "account":
      return "account_id";
    case "client_key":
      return "client_key_label";
    case "kind":
      return "kind";
  }
}

/**
 * Read-only aggregates for the dashboard. Windows of whole days read the `usage_daily` rollup (kept by
 * UsageRepo.insert), so they cost thousands of rows, not millions; partial-day windows read the usage
 * table through its `ts` index.
 */
export class UsageStatsRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Totals over rollup days `>= fromDay` (all time when null), of one kind of work or all. */
  totals(fromDay: number | null, kind: KindFilter = null): UsageTotals {
    const { and, args } = byKind(kind);
    const row = fromDay === null
      ? this.#db.prepare(`SELECT ${SUMS} FROM usage_daily WHERE 1 = 1${and}`).get(...args)
      : this.#db.prepare(`SELECT ${SUMS} FROM usage_daily WHERE day >= ?${and}`).get(fromDay, ...args);
    return totalsOf(row as SumRow);
  }

  /** Totals of raw usage rows with `ts >= sinceMs` (today in the reporting zone). */
  totalsSince(sinceMs: number): UsageTotals {
    const row = this.#db.prepare(
      `SELECT count(*) AS requests, coalesce(sum(CASE WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END), 0) AS ok,
         coalesce(sum(CASE WHEN status BETWEEN 400 AND 499 THEN 1 ELSE 0 END), 0) AS c4,
         coalesce(sum(CASE WHEN status >= 500 OR status < 200 THEN 1 ELSE 0 END), 0) AS c5,
         coalesce(sum(input_tokens), 0) AS inp, coalesce(sum(output_tokens), 0) AS outp,
         coalesce(sum(cache_read_tokens), 0) AS cr, coalesce(sum(cache_creation_tokens), 0) AS cc,
         coalesce(sum(cost), 0) AS cost FROM usage WHERE ts >= ?`,
    ).get(sinceMs);
    return totalsOf(row as SumRow);
  }

  /** Per-hour totals of raw usage rows with `ts >= sinceMs`, for windows too short for daily bars. */
  hourly(sinceMs: number, kind: KindFilter = null): HourlyTotals[] {
    const { and, args } = byKind(kind);
    const rows = this.#db.prepare(
      `SELECT ts / 3600000 AS hour, count(*) AS requests,
         coalesce(sum(CASE WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END), 0) AS ok,
         coalesce(sum(CASE WHEN status BETWEEN 400 AND 499 THEN 1 ELSE 0 END), 0) AS c4,
         coalesce(sum(CASE WHEN status >= 500 OR status < 200 THEN 1 ELSE 0 END), 0) AS c5,
         coalesce(sum(input_tokens), 0) AS inp, coalesce(sum(output_tokens), 0) AS outp,
         coalesce(sum(cache_read_tokens), 0) AS cr, coalesce(sum(cache_creation_tokens), 0) AS cc,
         coalesce(sum(cost), 0) AS cost FROM usage WHERE ts >= ?${and} GROUP BY ts / 3600000 ORDER BY ts / 3600000`,
    ).all(sinceMs, ...args) as unknown as SumRow[];
    return rows.map((r) => ({ hour: Number(r.hour), ...totalsOf(r) }));
  }

  /** Per-day totals for days `>= fromDay` that have rows. */
  daily(fromDay: number, kind: KindFilter = null): DailyTotals[] {
    const { and, args } = byKind(kind);
    const rows = this.#db.prepare(
      `SELECT day, ${SUMS} FROM usage_daily WHERE day >= ?${and} GROUP BY day ORDER BY day`,
    ).all(fromDay, ...args) as unknown as SumRow[];
    return rows.map((r) => ({ day: Number(r.day), ...totalsOf(r) }));
  }

  /** Totals per value of a dimension for days `>= fromDay`, by cost then requests. */
  breakdown(
    fromDay: number,
    dimension: UsageDimension,
    limit: number,
    kind: KindFilter = null,
  ): GroupTotals[] {
    const column = dimensionColumn(dimension);
    const { and, args } = byKind(kind);
    const rows = this.#db.prepare(
      `SELECT ${column} AS k, ${SUMS} FROM usage_daily WHERE day >= ?${and} GROUP BY ${column}
       ORDER BY cost DESC, requests DESC, k LIMIT ?`,
    ).all(fromDay, ...args, limit) as unknown as SumRow[];
    return rows.map((r) => ({ key: String(r.k), ...totalsOf(r) }));
  }

  /**
   * p50 and p95 latency (nearest rank) of successful requests since `sinceMs`, per model or provider, most
   * requests first. Read from raw usage rows (the daily rollup keeps no distribution).
   */
  latencyPercentiles(sinceMs: number, by: "model" | "provider", limit: number): LatencyPercentiles[] {
    return readPercentiles(
      this.#db,
      {
        table: "usage",
        value: "latency_ms",
        key: by === "model" ? "model" : "provider_id",
        where: "status BETWEEN 200 AND 299",
      },
      sinceMs,
      limit,
    );
  }

  /** One client key's usage (by its label, as the client_key breakdown names it) for days `>= fromDay`. */
  keyUsage(fromDay: number, label: string): KeyUsage {
    const where = "FROM usage_daily WHERE day >= ? AND client_key_label = ?";
    const daily = this.#db.prepare(`SELECT day, ${SUMS} ${where} GROUP BY day ORDER BY day`)
      .all(fromDay, label) as unknown as SumRow[];
    const models = this.#db.prepare(
      `SELECT model AS k, ${SUMS} ${where} GROUP BY model ORDER BY cost DESC, requests DESC, k LIMIT 50`,
    ).all(fromDay, label) as unknown as SumRow[];
    const modelDaily = this.#db.prepare(
      `SELECT day, model, ${SUMS} ${where} GROUP BY day, model ORDER BY day, model`,
    ).all(fromDay, label) as unknown as SumRow[];
    return {
      daily: daily.map((r) => ({ day: Number(r.day), ...totalsOf(r) })),
      models: models.map((r) => ({ key: String(r.k), ...totalsOf(r) })),
      modelDaily: modelDaily.map((r) => ({ day: Number(r.day), model: String(r.model), ...totalsOf(r) })),
    };
  }

  /** Totals per client key for days `>= fromDay`. */
  byClient(fromDay: number, kind: KindFilter = null): ClientTotals[] {
    const { and, args } = byKind(kind);
    const rows = this.#db.prepare(
      `SELECT client_key_id AS kid, client_key_label AS label, ${SUMS} FROM usage_daily WHERE day >= ?${and}
       GROUP BY client_key_id, client_key_label ORDER BY client_key_id, client_key_label`,
    ).all(fromDay, ...args) as unknown as SumRow[];
    return rows.map((r) => ({ keyId: Number(r.kid), label: String(r.label), ...totalsOf(r) }));
  }

  /** Models with token usage but no price, for days `>= fromDay`. */
  unpriced(fromDay: number): UnpricedModel[] {
    const rows = this.#db.prepare(
      `SELECT model, sum(unpriced_requests) AS n, sum(input_tokens) AS inp, sum(output_tokens) AS outp
       FROM usage_daily WHERE day >= ? AND unpriced_requests > 0 GROUP BY model ORDER BY n DESC, model`,
    ).all(fromDay) as unknown as SumRow[];
    return rows.map((r) => ({
      model: String(r.model),
      requests: Number(r.n),
      inputTokens: Number(r.inp),
      outputTokens: Number(r.outp),
    }));
  }
}
