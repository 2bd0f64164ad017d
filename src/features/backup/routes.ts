import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import { invalidField } from "../mod.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer } from "../../dashboard/validation.ts";

/** Export of the database state as YAML, and Reset to the YAML file. */
export function configRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const configFile = ctx.manage.configFile;

  // The export holds every upstream credential in plaintext, so the API itself asks for an explicit yes.
  app.get("/dashboard/api/export", (c) => {
    if (c.req.query("include_secrets") !== "true") {
      throw invalidField(
        "include_secrets",
        "must be true: the export contains every upstream credential in plaintext",
      );
    }
    return new Response(configFile.exportYaml(), {
      headers: {
        "content-type": "text/yaml; charset=utf-8",
        "content-disposition": 'attachment; filename="gateway-config.yaml"',
        "cache-control": "private, no-store",
      },
    });
  });

  app.post("/dashboard/api/reset", () => answer("POST /reset", { ok: true, seeded: configFile.reset() }));
  return app;
}
