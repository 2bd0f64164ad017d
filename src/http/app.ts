import { Hono } from "hono";
import type { ControlPlane } from "../gateway/control_plane.ts";
import { GatewayError } from "../model/mod.ts";
import { apiAuth } from "./auth.ts";
import type { AppEnv, AppVariables } from "./env.ts";
import { errorResponse } from "./errors.ts";
import { surfaceRoutes } from "./surface_routes.ts";
import { type UtilityDeps, utilityRoutes } from "./utility_routes.ts";
import type { Dispatcher } from "../gateway/dispatch.ts";
import type { DashboardContext } from "../dashboard/context.ts";
import { dashboardRoutes } from "./dashboard/mod.ts";
import { uiRoutes } from "./ui_assets.ts";

/** The version reported by `GET /api/version` and the CLI. */
export const GATEWAY_VERSION = "3.0.0";

/** Everything the HTTP layer needs, passed in by the composition root. */
export interface AppDeps extends UtilityDeps {
  readonly control: ControlPlane;
  readonly dispatcher: Dispatcher;
  /** The dashboard (sign-in, management and state APIs, UI); absent in bare data-plane setups. */
  readonly dashboard?: DashboardContext;
}

/** Picks the wire format errors on a path are encoded in. */
export function surfaceForPath(p: string): AppVariables["surface"] {
  if (p.startsWith("/v1/chat/completions")) return "chat_completions";
  if (p.startsWith("/v1/responses")) return "responses";
  if (p.startsWith("/v1/messages")) return "messages";
  if (p.startsWith("/v1beta/") || (p.startsWith("/v1/models/") && p.includes(":"))) return "generate_content";
  if (p.startsWith("/api/")) return "local_runner";
  return "utility";
}

/** Builds the Hono app. No I/O happens here beyond what the deps do. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError((error, c) => errorResponse(error, c.get("surface") ?? surfaceForPath(c.req.path)));
  app.notFound((c) =>
    errorResponse(
      new GatewayError(404, "not_found", `No route for ${c.req.method} ${c.req.path}`),
      surfaceForPath(c.req.path),
    )
  );
  app.use("*", async (c, next) => {
    c.set("surface", surfaceForPath(c.req.path));
    await next();
  });

  // Unauthenticated by the spec.
  app.get("/v1/health", (c) => c.json({ status: "ok" }));
  app.get("/api/version", (c) => c.json({ version: GATEWAY_VERSION }));

  const auth = apiAuth(deps.control);
  for (const pattern of ["/v1/*", "/v1beta/*", "/api/*"]) app.use(pattern, auth);
  app.route("/", utilityRoutes(deps));
  app.route("/", surfaceRoutes(deps.dispatcher));
  // The dashboard UI (uiRoutes) is served behind the dashboard's own access control.
  if (deps.dashboard) app.route("/", dashboardRoutes(deps.dashboard, GATEWAY_VERSION, uiRoutes()));
  return app;
}

/**
 * The request handler given to Deno.serve: the app behind a path repair for clients that append `/v1`
 * to a base URL that already ends in `/v1`.
 */
export function createHandler(deps: AppDeps): (request: Request) => Response | Promise<Response> {
  const app = createApp(deps);
  return (request) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith("/v1/v1/")) return app.fetch(request);
    url.pathname = url.pathname.slice(3);
    return app.fetch(new Request(url, request));
  };
}
