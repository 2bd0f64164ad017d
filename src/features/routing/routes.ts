import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer } from "../../dashboard/validation.ts";

/** Routing actions: clear every cooldown (memory and database). */
export function routingRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/dashboard/api/routing/clear-cooldowns", () => {
    const cleared = ctx.cooldowns.active(ctx.now()).length;
    ctx.cooldowns.clearAll();
    return answer("POST /routing/clear-cooldowns", { ok: true, cleared });
  });
  return app;
}
