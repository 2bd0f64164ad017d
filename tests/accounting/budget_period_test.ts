import {
  alertWindowStart,
  budgetPeriod,
  budgetRejection,
  periodStatus,
  periodWindow,
  PeriodWindows,
  RollingSpend,
  worstBudget,
} from "../../src/accounting/budget_period.ts";
import { budgetStatus, dayStartMs, secondsUntilMidnight } from "../../src/accounting/mod.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const day = { kind: "day" } as const;
const week = { kind: "week" } as const;
const month = { kind: "month" } as const;

Deno.test("the daily period reproduces today's budget check exactly: window, status, Retry-After, 429 body", () => {
  const instants = [
    "2025-01-15T12:00:00Z",
    "2025-03-09T05:00:00Z",
    "2025-11-02T04:00:00Z",
    "2024-09-07T12:00:00Z",
    "2025-01-15T23:59:59.800Z",
  ];
  const zones = ["UTC", "America/New_York", "Asia/Tokyo", "Asia/Kolkata", "America/Santiago"];
  for (const iso of instants) {
    for (const zone of zones) {
      const now = at(iso);
      const window = periodWindow(day, now, zone);
      assertEquals(window.start, dayStartMs(now, zone), `${iso} ${zone}`);
      for (
        const [limit, spent, warnPct] of [[10, 7.99, 80], [10, 8, 80], [10, 10, 80], [2, 2.5, 50], [0, 0, 80]]
      ) {
        const s = periodStatus({ period: day, limit, warnPct }, spent, window, now);
        const old = budgetStatus({ dailyLimit: limit, warnPct, spentToday: spent });
        assertEquals([s.status, s.percentage, s.remaining], [old.status, old.percentage, old.remaining]);
        assertEquals(s.retryAfterSeconds, secondsUntilMidnight(now, zone), `${iso} ${zone} Retry-After`);
        for (const owner of ["key", "global"] as const) {
          // What src/gateway/budget_guard.ts sends today, built the way it builds it.
          const scope = owner === "global" ? "Global" : "This API key's";
          const message = `${scope} daily budget of $${limit.toFixed(2)} is exceeded ` +
            `(spent $${spent.toFixed(4)} today); it resets at midnight (${zone})`;
          const rejection = budgetRejection(s, owner, zone);
          assertEquals(rejection.message, message);
          assertEquals(
            JSON.stringify(rejection.body),
            JSON.stringify({
              error: {
                message,
                type: "budget_exceeded",
                today_spend: Math.round(spent * 1e6) / 1e6,
                daily_limit: limit,
              },
            }),
          );
          assertEquals(rejection.retryAfterSeconds, secondsUntilMidnight(now, zone));
        }
      }
    }
  }
});

Deno.test("periodWindow() weeks run Monday 00:00 to Monday 00:00 local, 167 hours over a spring-forward", () => {
  // 2025-01-15 is a Wednesday.
  assertEquals(periodWindow(week, at("2025-01-15T12:00:00Z"), "UTC"), {
    start: at("2025-01-13T00:00:00Z"),
    end: at("2025-01-20T00:00:00Z"),
  });
  // Sunday 23:59 local still belongs to the week that began on Monday; Monday 00:00 starts the next.
  assertEquals(periodWindow(week, at("2025-01-19T23:59:59Z"), "UTC").start, at("2025-01-13T00:00:00Z"));
  assertEquals(periodWindow(week, at("2025-01-20T00:00:00Z"), "UTC").start, at("2025-01-20T00:00:00Z"));
  // Berlin springs forward on Sunday 2025-03-30: that week is one hour short.
  const berlin = periodWindow(week, at("2025-03-27T12:00:00Z"), "Europe/Berlin");
  assertEquals(berlin, { start: at("2025-03-23T23:00:00Z"), end: at("2025-03-30T22:00:00Z") });
  assertEquals(berlin.end - berlin.start, 7 * DAY - HOUR);
  // In Tokyo it is already Monday 2025-01-20 at 16:00Z on Sunday.
  assertEquals(
    periodWindow(week, at("2025-01-19T16:00:00Z"), "Asia/Tokyo").start,
    at("2025-01-19T15:00:00Z"),
  );
});

Deno.test("periodWindow() months are calendar months across a month boundary, leap years and DST", () => {
  assertEquals(periodWindow(month, at("2024-01-31T23:59:59Z"), "UTC"), {
    start: at("2024-01-01T00:00:00Z"),
    end: at("2024-02-01T00:00:00Z"),
  });
  assertEquals(periodWindow(month, at("2024-02-01T00:00:00Z"), "UTC"), {
    start: at("2024-02-01T00:00:00Z"),
    end: at("2024-03-01T00:00:00Z"),
  });
  const nyMarch = periodWindow(month, at("2025-03-15T12:00:00Z"), "America/New_York");
  assertEquals(nyMarch, { start: at("2025-03-01T05:00:00Z"), end: at("2025-04-01T04:00:00Z") });
  assertEquals(nyMarch.end - nyMarch.start, 31 * DAY - HOUR);
  // December rolls into the next year.
  assertEquals(periodWindow(month, at("2025-12-31T20:00:00Z"), "UTC").end, at("2026-01-01T00:00:00Z"));
  // 2025-01-31T20:00Z is already February 1 in Tokyo.
  assertEquals(
    periodWindow(month, at("2025-01-31T20:00:00Z"), "Asia/Tokyo").start,
    at("2025-01-31T15:00:00Z"),
  );
});

Deno.test("a month boundary with an injected clock: spend resets for the month, carries on for the week", () => {
  // A ledger of (instant, cost); each budget counts the spend inside its window at the instant checked.
  const spends: [number, number][] = [];
  const zone = "Europe/Berlin";
  const budgets = [
    { period: day, limit: 5, warnPct: 80 },
    { period: week, limit: 17, warnPct: 80 },
    { period: month, limit: 30, warnPct: 80 },
  ];
  const windows = new PeriodWindows();
  const check = (now: number) =>
    budgets.map((b) => {
      const w = windows.at(b.period, now, zone);
      const spent = spends.filter(([t]) => t >= w.start && t < w.end).reduce((sum, [, c]) => sum + c, 0);
      return periodStatus(b, spent, w, now);
    });
  // Wednesday 2025-04-30 (Berlin, UTC+2): $4 today on top of $25 earlier in April, $12 earlier this week.
  spends.push([at("2025-04-10T10:00:00Z"), 13], [at("2025-04-28T10:00:00Z"), 12], [
    at("2025-04-30T10:00:00Z"),
    4,
  ]);
  let now = at("2025-04-30T21:59:59Z"); // 23:59:59 local
  assertEquals(check(now).map((s) => [s.status, s.spent]), [["warning", 4], ["warning", 16], [
    "warning",
    29,
  ]]);
  assertEquals(worstBudget(check(now))?.status, "warning");
  spends.push([now, 1.5]);
  const exceeded = check(now);
  assertEquals(exceeded.map((s) => s.status), ["exceeded", "exceeded", "exceeded"]);
  // Day and month end at midnight, the week on Monday: the week binds.
  assertEquals(worstBudget(exceeded)?.period, week, "the binding budget is the one that resets last");
  assertEquals(worstBudget(exceeded)?.resetAt, at("2025-05-04T22:00:00Z"));
  now = at("2025-04-30T22:00:00Z"); // May 1, 00:00 local
  assertEquals(check(now).map((s) => [s.status, s.spent]), [["ok", 0], ["exceeded", 17.5], ["ok", 0]]);
  assertEquals(check(now)[1].retryAfterSeconds, (at("2025-05-04T22:00:00Z") - now) / 1000);
  const rejection = budgetRejection(check(now)[1], "group", zone);
  assertEquals(rejection.body.error, {
    message:
      "This API key's group's weekly budget of $17.00 is exceeded (spent $17.5000 this week); it resets " +
      "at 2025-05-04T22:00:00.000Z (Europe/Berlin)",
    type: "budget_exceeded",
    period: "week",
    period_spend: 17.5,
    period_limit: 17,
    resets_at: "2025-05-04T22:00:00.000Z",
  });
});

Deno.test("a time-zone change moves the windows at once (the cache follows the zone)", () => {
  const windows = new PeriodWindows();
  const now = at("2025-01-31T20:00:00Z");
  assertEquals(windows.at(month, now, "UTC").start, at("2025-01-01T00:00:00Z"));
  assertEquals(windows.at(month, now, "Asia/Tokyo").start, at("2025-01-31T15:00:00Z"), "February in Tokyo");
  assertEquals(windows.at(day, now, "America/Los_Angeles").start, at("2025-01-31T08:00:00Z"));
  assertEquals(windows.at(day, now, "UTC").start, at("2025-01-31T00:00:00Z"));
  // Within a cached window the answer is the cached object; past its end it is recomputed.
  const first = windows.at(day, now, "UTC");
  assertEquals(windows.at(day, now + HOUR, "UTC") === first, true);
  assertEquals(windows.at(day, at("2025-02-01T00:00:00Z"), "UTC").start, at("2025-02-01T00:00:00Z"));
});

Deno.test("RollingSpend counts a 5-hour window and says when enough spend has aged out", () => {
  const spend = new RollingSpend(5 * HOUR);
  assertEquals(spend.bucketMs, 60_000);
  const t0 = at("2025-06-01T00:00:00Z");
  spend.add(2, t0);
  spend.add(3, t0 + HOUR);
  spend.add(1, t0 + 2 * HOUR);
  assertEquals(spend.total(t0 + 2 * HOUR), 6);
  assertEquals(spend.resetAt(10, t0 + 2 * HOUR), t0 + 2 * HOUR, "not exceeded: now");
  // Under a $5 limit the first $2 must leave: it was spent in the minute from t0, so it leaves at most one
  // minute after t0 + 5 h.
  const reset = spend.resetAt(5, t0 + 2 * HOUR);
  assertEquals(reset, t0 + 5 * HOUR + 60_000);
  // The status of a rolling budget takes that reset.
  const period = budgetPeriod("rolling", 5 * HOUR);
  const now = t0 + 2 * HOUR;
  const s = periodStatus({ period, limit: 5 }, spend.total(now), periodWindow(period, now, ""), now, reset);
  assertEquals([s.status, s.retryAfterSeconds], ["exceeded", 3 * 3600 + 60]);
  assertEquals(budgetRejection(s, "key", "UTC").body.error.window_seconds, 18_000);
  assertEquals(
    budgetRejection(s, "key", "UTC").message.startsWith(
      "This API key's budget of $5.00 per 5 hours is exceeded",
    ),
    true,
  );
  assertEquals(alertWindowStart(s, now), Math.floor(now / (5 * HOUR)) * 5 * HOUR);
  // The clock only moves forward: just before the reset all $6 count, at it the first $2 has left.
  assertEquals(spend.total(reset - 1), 6);
  assertEquals(spend.total(reset), 4);
  // Everything ages out after a long quiet time; spend older than the window is ignored.
  assertEquals(spend.total(t0 + 30 * HOUR), 0);
  spend.add(9, t0);
  assertEquals(spend.total(t0 + 30 * HOUR), 0);
});

Deno.test("budgetPeriod() maps the stored form and refuses a rolling window without length", () => {
  assertEquals(budgetPeriod("week"), { kind: "week" });
  assertEquals(budgetPeriod("rolling", 60_000), { kind: "rolling", durationMs: 60_000 });
  assertThrows(() => budgetPeriod("rolling", null));
});
