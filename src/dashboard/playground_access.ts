import type { ClientIdentity } from "../gateway/identity.ts";
import { sameHost } from "./access.ts";
import type { DashboardContext } from "./context.ts";
import { readCookie, SESSION_COOKIE } from "./cookies.ts";
import type { DashboardSessions } from "./sessions.ts";

/** The header the Playground sends on its model requests; a plain HTML form or a cross-site page cannot. */
export const PLAYGROUND_HEADER = "x-gateway-playground";

/**
 * The Playground's way onto the data plane: a model request with no API key may ride the dashboard
 * session cookie, as that session's own identity (its allowlists, budgets and limits), but only when it
 * says it is the Playground (`x-gateway-playground: 1`) AND its Origin is this gateway. A custom header
 * makes a cross-site fetch a CORS preflight the gateway never approves, and the Origin check refuses
 * what gets through anyway, so another site cannot spend a signed-in operator's session. A request
 * without the marker is judged on its key alone, as before.
 */
export function playgroundSessionIdentity(
  ctx: Pick<DashboardContext, "now">,
  sessions: DashboardSessions,
): (request: Request, trustedProxy: boolean) => ClientIdentity | null {
  return (request, trustedProxy) => {
    if (request.headers.get(PLAYGROUND_HEADER) !== "1") return null;
    const origin = request.headers.get("origin");
    if (origin === null || !sameHost(origin, request, trustedProxy)) return null;
    const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
    return token ? sessions.resolve(token, ctx.now()) : null;
  };
}
