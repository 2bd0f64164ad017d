import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { budgetView, periodBudgetView } from "./state.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, idParam, readBody } from "../../dashboard/validation.ts";
import { invalidField } from "../field_error.ts";

const schema = z.object({
  scope: z.union([z.literal("global"), z.number().int().positive(), z.string().regex(/^\d+$/)], {
    error: 'must be "global" or an API key id',
  }),
  daily_limit: z.number({ error: "must be a number greater than 0 (USD)" }).refine(
    (n) => Number.isFinite(n) && n > 0,
    "must be a number greater than 0 (USD)",
  ),
  warn_pct: z.number({ error: "must be a number from 1 to 100" }).min(1, "must be a number from 1 to 100")
    .max(100, "must be a number from 1 to 100").default(80),
});

const periodSchema = z.object({
  scope: z.enum(["key", "group", "global"], { error: 'must be "key", "group" or "global"' }),
  scope_id: z.number({ error: "must be the key's or group's id" }).int().positive().optional(),
  period: z.enum(["day", "week", "month", "rolling"], { error: "must be day, week, month or rolling" }),
  window_seconds: z.number({ error: "must be a number of seconds" }).positive("must be above 0").optional(),
  limit: z.number({ error: "must be a number greater than 0 (USD)" }),
  warn_pct: z.number({ error: "must be a number from 1 to 100" }).optional(),
  hard_stop: z.boolean({ error: "must be true or false" }).optional(),
  webhook_url: z.string({ error: "must be an http(s) URL or null" }).nullable().optional(),
  webhook_secret: z.string({ error: "must be a string" }).optional(),
});

/** Budgets: one per scope (global or a DB key); posting again updates it. */
export function budgetsRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const budgets = ctx.manage.budgets;

  app.post("/dashboard/api/budgets", async (c) => {
    const input = await readBody(c, "POST /budgets", schema);
    const keyId = input.scope === "global" ? null : Number(input.scope);
    const budget = budgets.set(keyId, input.daily_limit, input.warn_pct);
    return answer("POST /budgets", { ok: true, budget: budgetView(budget, ctx) });
  });

  app.post("/dashboard/api/v2/budgets", async (c) => {
    const input = await readBody(c, "POST /v2/budgets", periodSchema);
    if (input.scope !== "global" && input.scope_id === undefined) {
      throw invalidField("scope_id", "is required for a key or group budget");
    }
    const saved = budgets.setPeriod({
      scope: input.scope === "global"
        ? { kind: "global" }
        : input.scope === "key"
        ? { kind: "key", keyId: input.scope_id! }
        : { kind: "group", groupId: input.scope_id! },
      period: input.period,
      rollingMs: input.window_seconds === undefined ? null : input.window_seconds * 1000,
      limit: input.limit,
      warnPct: input.warn_pct,
      hardStop: input.hard_stop,
      webhookUrl: input.webhook_url,
      webhookSecret: input.webhook_secret,
    });
    return answer("POST /v2/budgets", {
      ok: true,
      budget: periodBudgetView(saved.budget, ctx),
      ...(saved.webhookSecret === undefined ? {} : { webhook_secret: saved.webhookSecret }),
    });
  });

  app.delete("/dashboard/api/budgets/:id", (c) => {
    budgets.delete(idParam(c.req.param("id"), "Budget"));
    return answer("DELETE /budgets/:id", { ok: true });
  });
  return app;
}
