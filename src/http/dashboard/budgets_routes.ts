import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { budgetView } from "../../dashboard/views.ts";
import type { AppEnv } from "../env.ts";
import { fieldError, idParam, jsonObject, notFound, parseInput } from "./validation.ts";

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
  const { control } = ctx.runtime;

  app.post("/dashboard/api/budgets", async (c) => {
    const input = parseInput(schema, await jsonObject(c));
    const keyId = input.scope === "global" ? null : Number(input.scope);
    if (keyId !== null && !control.keys.some((k) => k.id === keyId && k.status === "active")) {
      throw fieldError("scope", `API key ${keyId} does not exist or is revoked`);
    }
    const budget = control.store.budgets.set(keyId, input.daily_limit, input.warn_pct, ctx.runtime.now());
    control.reload();
    return c.json({ ok: true, budget: budgetView(budget, ctx.runtime) });
  });

  app.delete("/dashboard/api/budgets/:id", (c) => {
    const id = idParam(c.req.param("id"), "Budget");
    if (!control.store.budgets.delete(id)) throw notFound(`Budget ${id} does not exist`);
    control.reload();
    return c.json({ ok: true });
  });
  return app;
}
