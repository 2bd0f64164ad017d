import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer } from "../../dashboard/validation.ts";

/** Routing actions: clear every cooldown, or one account's (memory and database). */
export function routingRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/dashboard/api/routing/clear-cooldowns", () => {
    const cleared = ctx.cooldowns.active(ctx.now()).length;
    ctx.cooldowns.clearAll();
    return answer("POST /routing/clear-cooldowns", { ok: true, cleared });
  });
  app.post("/dashboard/api/routing/accounts/:id/clear-cooldown", (c) => {
    const cleared = ctx.cooldowns.clearAccount(c.req.param("id"));
    return answer("POST /routing/accounts/:id/clear-cooldown", { ok: true, cleared });
  });
  return app;
}
