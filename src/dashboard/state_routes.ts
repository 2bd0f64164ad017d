import { Hono } from "hono";
import type { DashboardContext } from "./context.ts";
import { buildState, isStateSection } from "./sections.ts";
import type { AppEnv } from "../http/env.ts";
import { publicOrigin } from "../http/forwarded.ts";
import { notFound } from "../features/mod.ts";
import { privateJson } from "../http/responses.ts";

/** GET /dashboard/api/v2/state/{section}. */
export function stateRoutes(ctx: DashboardContext, version: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/dashboard/api/v2/state/:section", (c) => {
    const section = c.req.param("section");
    if (!isStateSection(section)) throw notFound(`Unknown state section "${section}"`);
    const query = new URL(c.req.url).searchParams;
    return privateJson(
      buildState(section, ctx, query, publicOrigin(c.req.raw, c.env?.trustedProxy === true), version),
    );
  });
  return app;
}
