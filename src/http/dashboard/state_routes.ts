import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import { buildState, isStateSection } from "../../dashboard/state/sections.ts";
import type { AppEnv } from "../env.ts";
import { notFound } from "../../management/mod.ts";
import { privateJson } from "./validation.ts";

/** The server's origin as the client sees it, honouring a reverse proxy's forwarded headers. */
export function publicOrigin(request: Request): string {
  const url = new URL(request.url);
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0].trim() ||
    url.protocol.replace(":", "");
  const host = request.headers.get("x-forwarded-host")?.split(",")[0].trim() || request.headers.get("host") ||
    url.host;
  return `${proto}://${host}`;
}

/** GET /dashboard/api/v2/state/{section}. */
export function stateRoutes(ctx: DashboardContext, version: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/dashboard/api/v2/state/:section", (c) => {
    const section = c.req.param("section");
    if (!isStateSection(section)) throw notFound(`Unknown state section "${section}"`);
    const query = new URL(c.req.url).searchParams;
    return privateJson(buildState(section, ctx, query, publicOrigin(c.req.raw), version));
  });
  return app;
}
