import { assertEquals } from "../helpers/assert.ts";
import { budgetStatus } from "../../src/accounting/mod.ts";

Deno.test("budgetStatus() is ok below the warning threshold", () => {
  assertEquals(budgetStatus({ dailyLimit: 10, spentToday: 7.99 }).status, "ok");
  assertEquals(budgetStatus({ dailyLimit: 10, spentToday: 0 }), {
    status: "ok",
    percentage: 0,
    remaining: 10,
  });
});

Deno.test("budgetStatus() warns from exactly the default 80 % up to just below the limit", () => {
  assertEquals(budgetStatus({ dailyLimit: 10, spentToday: 8 }), {
    status: "warning",
    percentage: 80,
    remaining: 2,
  });
  assertEquals(budgetStatus({ dailyLimit: 10, spentToday: 9.99 }).status, "warning");
  assertEquals(budgetStatus({ dailyLimit: 0.3, spentToday: 0.24 }).status, "warning");
});

Deno.test("budgetStatus() is exceeded at exactly the limit and above", () => {
  assertEquals(budgetStatus({ dailyLimit: 10, spentToday: 10 }), {
    status: "exceeded",
    percentage: 100,
    remaining: 0,
  });
  assertEquals(budgetStatus({ dailyLimit: 10, spentToday: 12.5 }).remaining, 0);
});

Deno.test("budgetStatus() treats a zero or negative limit as exceeded", () => {
  assertEquals(budgetStatus({ dailyLimit: 0, spentToday: 0 }), {
    status: "exceeded",
    percentage: 100,
    remaining: 0,
  });
  assertEquals(budgetStatus({ dailyLimit: -5, spentToday: 0 }).status, "exceeded");
});

Deno.test("budgetStatus() honours a custom warning percentage", () => {
  assertEquals(budgetStatus({ dailyLimit: 10, warnPct: 50, spentToday: 4.99 }).status, "ok");
  assertEquals(budgetStatus({ dailyLimit: 10, warnPct: 50, spentToday: 5 }).status, "warning");
});
