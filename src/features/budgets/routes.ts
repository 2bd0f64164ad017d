import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { budgetView } from "./state.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, idParam, readBody } from "../../dashboard/validation.ts";

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

  app.delete("/dashboard/api/budgets/:id", (c) => {
    budgets.delete(idParam(c.req.param("id"), "Budget"));
    return answer("DELETE /budgets/:id", { ok: true });
  });
  return app;
}
