/**
 * Bench: what rate limits and budgets cost a request on the hot path, in-process, no network: one
 * RateLimiter.check (RPM + TPM + concurrency) with its permit settled and released, and the budget verdict
 * over a key's, its group's and the global budgets (day, week, month from cached windows; a 5-hour rolling
 * window), all from memory. Goal: at most 2 µs per request for limit + budget check together.
 * Run: deno run -A scripts/bench/limits.ts [keys] [checks]
 */
import {
  type BudgetPeriod,
  periodStatus,
  PeriodWindows,
  RateLimiter,
  type RateLimits,
  RollingSpend,
  worstBudget,
} from "../../src/accounting/mod.ts";

/** One measured scenario. */
export interface LimitsBenchRow {
  readonly name: string;
  readonly nsPerCheck: number;
}

const ROUNDS = 7;

/** Measures each scenario over `checks` requests spread over `keys` keys; prints and returns ns per check. */
export function benchLimits(keys = 1000, checks = 200_000): LimitsBenchRow[] {
  const limits: RateLimits = { rpm: 1_000_000, tpm: 1_000_000_000, maxParallel: 10_000 };
  const scopes = Array.from({ length: keys }, (_, i) => `key:${i}`);
  const zone = "Europe/Berlin";
  const budgets: { period: BudgetPeriod; limit: number; warnPct: number }[] = [
    { period: { kind: "day" }, limit: 1e9, warnPct: 80 },
    { period: { kind: "week" }, limit: 1e9, warnPct: 80 },
    { period: { kind: "month" }, limit: 1e9, warnPct: 80 },
  ];
  const rolling = { period: { kind: "rolling", durationMs: 5 * 3_600_000 } as BudgetPeriod, limit: 1e9 };
  const spend = new Map(
    scopes.map((s) => [s, { day: 1, week: 2, month: 3, rolling: new RollingSpend(5 * 3_600_000) }]),
  );
  const start = Date.parse("2026-11-28T05:00:00Z");
  const rows: LimitsBenchRow[] = [];
  let sink = 0;

  const scenario = (name: string, run: (i: number, now: number) => void) => {
    const timings: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const t0 = performance.now();
      for (let i = 0; i < checks; i++) run(i, start + round * checks + i);
      timings.push(((performance.now() - t0) * 1e6) / checks);
    }
    timings.sort((a, b) => a - b);
    rows.push({ name, nsPerCheck: timings[Math.floor(ROUNDS / 2)] });
  };

  const limiter = new RateLimiter();
  scenario("rate limit check (RPM+TPM+parallel), settle, release", (i, now) => {
    const decision = limiter.check(scopes[i % keys], limits, 500, now);
    decision.permit?.settle(480, now);
    decision.permit?.release();
    sink += decision.requests?.remaining ?? 0;
  });

  const windows = new PeriodWindows();
  scenario("budget verdict: 3 calendar budgets x key/group/global + rolling", (i, now) => {
    const s = spend.get(scopes[i % keys])!;
    const statuses = [];
    for (let scope = 0; scope < 3; scope++) {
      for (const b of budgets) {
        const w = windows.at(b.period, now, zone);
        statuses.push(
          periodStatus(
            b,
            b.period.kind === "day" ? s.day : b.period.kind === "week" ? s.week : s.month,
            w,
            now,
          ),
        );
      }
    }
    s.rolling.add(0.001, now);
    statuses.push(periodStatus(rolling, s.rolling.total(now), { start: now - 5 * 3_600_000, end: now }, now));
    sink += worstBudget(statuses)?.remaining ?? 0;
  });

  const limiter2 = new RateLimiter();
  scenario("limit + budget together (one key's request)", (i, now) => {
    const scope = scopes[i % keys];
    const decision = limiter2.check(scope, limits, 500, now);
    const s = spend.get(scope)!;
    const statuses = [];
    for (const b of budgets) statuses.push(periodStatus(b, s.month, windows.at(b.period, now, zone), now));
    sink += worstBudget(statuses)?.remaining ?? 0;
    decision.permit?.settle(480, now);
    decision.permit?.release();
  });

  for (const row of rows) {
    console.log(`${row.name.padEnd(66)} ${row.nsPerCheck.toFixed(0).padStart(6)} ns/check`);
  }
  if (sink === -1) console.log(sink);
  return rows;
}

if (import.meta.main) {
  const [keys, checks] = Deno.args.map(Number);
  benchLimits(keys || undefined, checks || undefined);
}
