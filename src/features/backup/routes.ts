import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer } from "../../dashboard/validation.ts";
import { download } from "../../http/responses.ts";

/** Export of the database state as YAML, and Reset to the YAML file. */
export function configRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const configFile = ctx.manage.configFile;

  // The plain export (the spec's backup download) names each credential as a ${VARIABLE}; plaintext only
  // on an explicit include_secrets=true, which the UI asks for after its warning (administrators only).
  app.get("/dashboard/api/export", (c) => {
    const includeSecrets = c.req.query("include_secrets") === "true";
    return download(
      configFile.exportYaml({ includeSecrets }),
      "text/yaml; charset=utf-8",
      "gateway-config.yaml",
    );
  });

  app.post("/dashboard/api/reset", () => answer("POST /reset", { ok: true, seeded: configFile.reset() }));
  return app;
}
