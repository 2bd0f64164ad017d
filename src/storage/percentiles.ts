import type { Database } from "./database.ts";

/** Nearest-rank p50 and p95 of one model or provider. */
export interface Percentiles {
  readonly key: string;
  readonly requests: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
}

/** What a percentile read ranks: the table, the value, the group column and which rows count. */
export interface PercentileSource {
  readonly table: "usage" | "requests";
  readonly value: "latency_ms" | "ttft_ms";
  readonly key: "model" | "provider_id";
  /** Extra SQL condition on top of "since" (constant text, never input). */
  readonly where: string;
}

/**
 * p50 and p95 (nearest rank) of `source.value` per `source.key` since `sinceMs`, most rows first. Both
 * databases run it: ranks by window functions, the rank of a percentile by integer division.
 */
export function readPercentiles(
  db: Database,
  source: PercentileSource,
  sinceMs: number,
  limit: number,
): Percentiles[] {
  const { table, value, key, where } = source;
  const rows = db.prepare(
    `WITH ranked AS (
       SELECT ${key} AS k, ${value} AS v,
         row_number() OVER (PARTITION BY ${key} ORDER BY ${value}) AS rn,
         count(*) OVER (PARTITION BY ${key}) AS total
       FROM ${table} WHERE ts >= ? AND ${where})
     SELECT k, max(total) AS requests,
       max(CASE WHEN rn = (total * 50 + 99) / 100 THEN v END) AS p50,
       max(CASE WHEN rn = (total * 95 + 99) / 100 THEN v END) AS p95
     FROM ranked GROUP BY k ORDER BY max(total) DESC, k LIMIT ?`,
  ).all(sinceMs, limit) as unknown as { k: unknown; requests: unknown; p50: unknown; p95: unknown }[];
  return rows.map((r) => ({
    key: String(r.k),
    requests: Number(r.requests),
    p50Ms: Number(r.p50),
    p95Ms: Number(r.p95),
  }));
}
