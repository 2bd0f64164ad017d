import { GATEWAY_VERSION } from "../version.ts";
import { Hono } from "hono";
import { ipMatcher } from "../security/ip_ranges.ts";
import { GatewayError } from "../model/mod.ts";
import { apiAuth } from "./auth.ts";
import type { AppEnv } from "./env.ts";
import { errorResponse } from "./errors.ts";
import { isResponsesUpgrade, serveResponsesSocket } from "./responses_socket.ts";
import { handleSurfaceRequest, type SurfaceDeps, surfaceForPath } from "./surface_routes.ts";
import { type UtilityDeps, utilityRoutes } from "./utility_routes.ts";
import { storedResponseRoutes } from "./stored_response_routes.ts";
import type { ResponseStore } from "../gateway/response_store.ts";
import type { DashboardContext } from "../dashboard/context.ts";
import { dashboardRoutes } from "../dashboard/mod.ts";
import { DashboardSessions } from "../dashboard/sessions.ts";
import { PLAYGROUND_HEADER, playgroundSessionIdentity } from "../dashboard/playground_access.ts";
import { uiRoutes } from "./ui_assets.ts";
import { type MetricsEndpoint, metricsRoutes } from "./metrics_route.ts";
import { RequestTiming } from "../gateway/request_timing.ts";

/** Everything the HTTP layer needs, passed in by the composition root. */
export interface AppDeps extends UtilityDeps, SurfaceDeps {
  /** The dashboard (sign-in, management and state APIs, UI); absent in bare data-plane setups. */
  readonly dashboard?: DashboardContext;
  /** `GET /metrics`; absent: the path does not exist. */
  readonly metrics?: MetricsEndpoint;
  /** The Responses API's stored responses (GET and DELETE by id); absent: those paths do not exist. */
  readonly responses?: ResponseStore;
  /** A monotonic clock in ms for `x-gateway-overhead-ms` (performance.now unless given). */
  readonly clock?: () => number;
  /**
   * This process's worker number under `serve --workers`, sent as `x-gateway-worker` on every response, so
   * an operator (and a test) can tell which process answered; absent for a single process (no header).
   */
  readonly worker?: string;
}

/** Builds the Hono app. No I/O happens here beyond what the deps do. */
export function createApp(deps: AppDeps, sessions?: DashboardSessions): Hono<AppEnv> {
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
  // Its own access rule (metrics token or dashboard access), never the API's.
  if (deps.metrics) app.route("/", metricsRoutes(deps.metrics, deps.dashboard));

  const auth = apiAuth(deps.control);
  for (const pattern of ["/v1/*", "/v1beta/*", "/api/*"]) app.use(pattern, auth);
  app.route("/", utilityRoutes(deps));
  if (deps.responses) app.route("/", storedResponseRoutes(deps.responses));
  // The dashboard UI (uiRoutes) is served behind the dashboard's own access control.
  if (deps.dashboard) app.route("/", dashboardRoutes(deps.dashboard, GATEWAY_VERSION, uiRoutes(), sessions));
  return app;
}

/**
 * The request handler given to Deno.serve: model endpoints go straight to their handler (see
 * surface_routes.ts), everything else to the Hono app; clients that append `/v1` to a base URL that
 * already ends in `/v1` are repaired first.
 */
export function createHandler(
  deps: AppDeps,
): (request: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response> {
  const sessions = deps.dashboard ? new DashboardSessions(deps.dashboard) : undefined;
  const app = createApp(deps, sessions);
  const isTrustedProxy = ipMatcher(deps.control.config.server.trustedProxies);
  const viaSession = deps.dashboard && sessions
    ? playgroundSessionIdentity(deps.dashboard, sessions)
    : undefined;
  const clock = deps.clock ?? (() => performance.now());
  const worker = deps.worker;
  return (request, info) => {
    const timing = new RequestTiming(clock);
    let path = pathOf(request.url);
    if (path.startsWith("/v1/v1/")) {
      const url = new URL(request.url);
      url.pathname = url.pathname.slice(3);
      request = new Request(url, request);
      path = path.slice(3);
    }
    if (isResponsesUpgrade(path, request)) return serveResponsesSocket(deps, request, clock);
    const peer = info?.remoteAddr.transport === "tcp" ? info.remoteAddr.hostname : "";
    if (request.method === "POST") {
      // Only the Playground's requests pay for the session lookup (and for this copy of the deps).
      const surfaceDeps = viaSession && request.headers.has(PLAYGROUND_HEADER)
        ? { ...deps, sessionIdentity: (r: Request) => viaSession(r, isTrustedProxy(peer)) }
        : deps;
      const handled = handleSurfaceRequest(surfaceDeps, path, request, timing);
      if (handled !== null) return handled.then((response) => withOverhead(response, timing, worker));
    }
    const response = app.fetch(request, { trustedProxy: isTrustedProxy(peer), peer });
    return response instanceof Promise
      ? response.then((r) => withOverhead(r, timing, worker))
      : withOverhead(response, timing, worker);
  };
}

/**
 * Adds `x-gateway-overhead-ms`: the time the gateway spent on the request, minus what it waited on
 * upstreams. Headers leave before a stream's body, so for a stream it covers the time to the first byte.
 * Under `serve --workers` it also adds `x-gateway-worker`.
 */
function withOverhead(response: Response, timing: RequestTiming, worker: string | undefined): Response {
  // A model request fixed its overhead at its first byte (its answer encoded); others are measured now.
  const value = (timing.overheadMs >= 0 ? timing.overheadMs : timing.overheadNow()).toFixed(3);
  let target = response;
  try {
    target.headers.set("x-gateway-overhead-ms", value);
  } catch {
    // Immutable headers (a redirect made by Response.redirect): copy into a response we own.
    target = new Response(response.body, response);
    target.headers.set("x-gateway-overhead-ms", value);
  }
  if (worker !== undefined) target.headers.set("x-gateway-worker", worker);
  return target;
}

/** The path of an absolute URL without building a URL object (the request path is hot). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const end = url.search(/[?#]/);
  return url.slice(start, end === -1 ? undefined : end);
}
