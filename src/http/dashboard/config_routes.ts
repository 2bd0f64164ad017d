import { Hono } from "hono";
import { ConfigError } from "../../config/mod.ts";
import { exportConfigYaml, resetFromYaml } from "../../dashboard/config_export.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { AppEnv } from "../env.ts";
import { fieldError } from "./validation.ts";

/** Export of the database state as YAML, and Reset to the YAML file. */
export function configRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { control } = ctx.runtime;

  app.get("/dashboard/api/export", () =>
    new Response(exportConfigYaml(control), {
      headers: {
        "content-type": "text/yaml; charset=utf-8",
        "content-disposition": 'attachment; filename="gateway-config.yaml"',
        "cache-control": "private, no-store",
      },
    }));

  app.post("/dashboard/api/reset", (c) => {
    let seeded;
    try {
      seeded = resetFromYaml(control, ctx.env, ctx.runtime.now());
    } catch (error) {
      if (error instanceof ConfigError) throw fieldError("config", error.message, 422);
      throw error;
    }
    control.reload();
    return c.json({ ok: true, seeded });
  });
  return app;
}
