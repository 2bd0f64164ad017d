import { Hono } from "hono";
import { isSettingKey, resolveSettings, validateSetting } from "../../config/runtime_settings.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { AppEnv } from "../env.ts";
import { fieldError, jsonObject } from "./validation.ts";

/**
 * Runtime settings: a partial map. Every entry is validated (and clamped where the setting clamps)
 * before any is stored, so one bad value changes nothing; `null` deletes the stored value.
 */
export function settingsRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { control } = ctx.runtime;

  app.post("/dashboard/api/settings", async (c) => {
    const body = await jsonObject(c);
    const writes: [string, string][] = [];
    const deletes: string[] = [];
    for (const [key, value] of Object.entries(body)) {
      if (!isSettingKey(key)) throw fieldError(key, `unknown setting "${key}"`);
      if (value === null) {
        deletes.push(key);
        continue;
      }
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
        throw fieldError(key, "must be a string, number or boolean");
      }
      const checked = validateSetting(key, String(value));
      if (!checked.ok) throw fieldError(key, checked.error.replace(`${key}: `, ""));
      writes.push([key, checked.text]);
    }
    control.store.transaction(() => {
      for (const [key, value] of writes) control.store.settings.set(key, value);
      if (deletes.length > 0) control.store.settings.delete(deletes);
    });
    control.reload();
    const settings = resolveSettings(control.store.settings.all(), control.config.server.requireApiKey);
    return c.json({ ok: true, changed: [...writes.map(([k]) => k), ...deletes], settings });
  });
  return app;
}
