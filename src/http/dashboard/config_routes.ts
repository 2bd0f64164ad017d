import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { AppEnv } from "../env.ts";

/** Export of the database state as YAML, and Reset to the YAML file. */
export function configRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const configFile = ctx.manage.configFile;

  app.get("/dashboard/api/export", () =>
    new Response(configFile.exportYaml(), {
      headers: {
        "content-type": "text/yaml; charset=utf-8",
        "content-disposition": 'attachment; filename="gateway-config.yaml"',
        "cache-control": "private, no-store",
      },
    }));

  app.post("/dashboard/api/reset", (c) => c.json({ ok: true, seeded: configFile.reset() }));
  return app;
}
