import { Hono } from "hono";
import type { DashboardContext } from "../dashboard/context.ts";
import { DashboardSessions } from "../dashboard/sessions.ts";
import { GatewayError } from "../model/mod.ts";
import { dashboardIdentity } from "../dashboard/access.ts";
import type { AppEnv } from "./env.ts";

/** What `GET /metrics` serves. */
export interface MetricsEndpoint {
  /** Off: the path does not exist (404). */
  readonly enabled: boolean;
  /** The scrapers' bearer token; empty: only dashboard access may scrape. */
  readonly token: string;
  /** The exposition text. */
  render(): string;
}

/** The Prometheus text format's content type. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/**
 * `GET /metrics`: off unless enabled, and never anonymous: the metrics bearer token, or whatever opens
 * the dashboard (a login-capable key or a session cookie). `require_api_key: false` does not open it.
 */
export function metricsRoutes(endpoint: MetricsEndpoint, dashboard?: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const sessions = dashboard ? new DashboardSessions(dashboard) : undefined;
  app.get("/metrics", (c) => {
    if (!endpoint.enabled) {
      throw new GatewayError(
        404,
        "not_found",
        "No route for GET /metrics (metrics are off: set metrics.enabled)",
      );
    }
    const request = c.req.raw;
    const byToken = endpoint.token !== "" && sameSecret(bearerOf(request.headers), endpoint.token);
    const byDashboard = !byToken && dashboard !== undefined && sessions !== undefined &&
      dashboardIdentity(request, dashboard.state, sessions, dashboard.now()) !== null;
    if (!byToken && !byDashboard) {
      throw new GatewayError(401, "authentication", "Metrics need the metrics token or dashboard access", {
        headers: { "www-authenticate": 'Bearer realm="metrics"' },
        fixedBody: { detail: "Metrics need the metrics token or dashboard access" },
      });
    }
    return new Response(endpoint.render(), {
      headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" },
    });
  });
  return app;
}

function bearerOf(headers: Headers): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  return match ? match[1] : "";
}

/** Compares without stopping at the first difference, so timing does not reveal a prefix of the token. */
function sameSecret(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) | 0) ^ expected.charCodeAt(i);
  return diff === 0;
}
