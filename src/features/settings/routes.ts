import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, jsonObject } from "../../dashboard/validation.ts";

/**
 * Runtime settings: a partial map. Every entry is validated (and clamped where the setting clamps)
 * before any is stored, so one bad value changes nothing; `null` deletes the stored value.
 */
export function settingsRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/dashboard/api/settings", async (c) => {
    const { changed, settings } = ctx.manage.settings.apply(await jsonObject(c));
    return answer("POST /settings", { ok: true, changed, settings });
  });
  return app;
}
