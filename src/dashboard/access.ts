import type { MiddlewareHandler } from "hono";
import { type DashboardSessions, loginRefusal } from "./sessions.ts";
import type { GatewayState } from "./context.ts";
import type { DashboardIdentity, IdentityRules } from "./identity.ts";
import { GatewayError } from "../model/mod.ts";
import { presentedKey } from "../http/credentials.ts";
import type { AppEnv } from "../http/env.ts";
import { forwardedHeader } from "../http/forwarded.ts";
import { readCookie, SESSION_COOKIE } from "./cookies.ts";

/** How a dashboard request was authenticated. */
export type AccessVia = "header" | "cookie";

const via = new WeakMap<Request, AccessVia>();

/** How the current request was let in (for /dashboard/api/me). */
export function accessVia(request: Request): AccessVia | undefined {
  return via.get(request);
}

/** The identity a request presents for the dashboard: a login-capable key, else a live session cookie. */
export function dashboardIdentity(
  request: Request,
  control: Pick<GatewayState, "identify">,
  sessions: DashboardSessions,
  now: number,
): { identity: DashboardIdentity; via: AccessVia } | null {
  const key = presentedKey(request.headers, request.url);
  if (key !== null) {
    const identity = control.identify(key);
    if (identity !== null && loginRefusal(identity) === null) return { identity, via: "header" };
  }
  const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  const identity = token ? sessions.resolve(token, now) : null;
  return identity ? { identity, via: "cookie" } : null;
}

/**
 * Dashboard access: a login-capable key or a session cookie, on every request (no loopback bypass, and
 * require_api_key never opens it). Browsers are sent to the sign-in page; API calls get the spec's 401.
 */
export function dashboardAccess(
  control: Pick<GatewayState, "identify">,
  sessions: DashboardSessions,
  now: () => number,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const found = dashboardIdentity(c.req.raw, control, sessions, now());
    if (found === null) {
      const method = c.req.method;
      const accept = c.req.header("accept") ?? "";
      if ((method === "GET" || method === "HEAD") && accept.includes("text/html")) {
        const url = new URL(c.req.url);
        url.searchParams.delete("key");
        const target = url.pathname + url.search;
        return c.redirect(`/dashboard/login?next=${encodeURIComponent(target)}`, 303);
      }
      throw new GatewayError(401, "authentication", "Dashboard authentication required", {
        fixedBody: { detail: "Dashboard authentication required" },
      });
    }
    via.set(c.req.raw, found.via);
    c.set("identity", found.identity);
    await next();
  };
}

/**
 * Reads that show what only administrators may see: plaintext credentials, other users' prompts, and
 * provider sign-ins in progress.
 */
const ADMIN_READS =
  /^\/dashboard\/api\/(?:export|request-logs\/|providers\/[^/]+\/connect|inventory\/export)/;

/** A request-log page filtered by text in the captured bodies: a read of bodies, so an administrator's. */
function searchesBodies(request: Request): boolean {
  const url = new URL(request.url);
  return url.pathname === "/dashboard/api/v2/state/request-logs" &&
    (url.searchParams.get("q") ?? "").trim() !== "";
}

/**
 * Least privilege: a viewer may look at the dashboard but change nothing, export nothing and read no
 * request bodies. Mount after dashboardAccess.
 */
export function adminOnlyChanges(role: IdentityRules["role"]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (role(c.get("identity")) !== "admin") {
      const method = c.req.method;
      const path = c.req.path;
      const reading = method === "GET" || method === "HEAD";
      if (
        path.startsWith("/dashboard/api/") &&
        (!reading || ADMIN_READS.test(path) || searchesBodies(c.req.raw))
      ) {
        throw new GatewayError(
          403,
          "permission",
          "This dashboard account is a viewer: it can look but not change, export or read request bodies",
        );
      }
    }
    await next();
  };
}

/**
 * Refuses cross-site mutations: when a browser says where a POST/PUT/PATCH/DELETE came from (Origin, or
 * Referer without it), that host must be ours. Clients that send neither (curl, SDKs) are not browsers
 * and cannot be driven by another site.
 */
export function sameOriginMutations(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
      const source = c.req.header("origin") ?? c.req.header("referer");
      if (source !== undefined && !sameHost(source, c.req.raw, c.env?.trustedProxy === true)) {
        throw new GatewayError(403, "permission", "Cross-origin dashboard request refused");
      }
    }
    await next();
  };
}

/** Whether `source` (an Origin or Referer) names this gateway's own host. */
export function sameHost(source: string, request: Request, trustedProxy: boolean): boolean {
  let host: string;
  try {
    host = new URL(source).host.toLowerCase();
  } catch {
    return false; // "null" and garbage are never our origin
  }
  const own = (request.headers.get("host") ?? new URL(request.url).host).toLowerCase();
  const forwarded = forwardedHeader(request, "x-forwarded-host", trustedProxy);
  return host === own || (forwarded !== undefined && host === forwarded);
}
