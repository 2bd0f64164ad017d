import { Hono } from "hono";
import type { DashboardContext } from "./context.ts";
import type { DashboardSessions } from "./sessions.ts";
import { SSO_SESSION_MAX_AGE_S } from "./sessions.ts";
import type { AppEnv } from "../http/env.ts";
import { cameOverHttps, publicOrigin } from "../http/forwarded.ts";
import { readCookie, sessionCookie } from "./cookies.ts";
import { loginPage, signedInPage } from "./login_page.ts";
import { safeNext } from "./login_routes.ts";
import { htmlPage, redirect } from "../http/responses.ts";
import { auditActor } from "../features/audit/routes.ts";
import { SSO_CALLBACK_PATH, SSO_START_PATH, SsoError } from "../sso/mod.ts";

/** The cookie binding a started sign-in to the browser that started it (login CSRF). */
const BINDING_COOKIE = "gateway_sso_binding";

/**
 * Lax, not Strict: the provider's redirect back is a cross-site navigation and must carry it. Scoped to the
 * SSO paths and short-lived; HttpOnly like the session cookie.
 */
function bindingCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${BINDING_COOKIE}=${encodeURIComponent(value)}; HttpOnly; SameSite=Lax; Path=/dashboard/sso; ` +
    `Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** GET /dashboard/sso/start and /dashboard/sso/callback (only with `sso:` configured: else 404s). */
export function ssoRoutes(ctx: DashboardContext, sessions: DashboardSessions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const sso = ctx.sso;
  if (sso === null) return app;

  app.get(SSO_START_PATH, async (c) => {
    const trusted = c.env?.trustedProxy === true;
    const next = safeNext(c.req.query("next"));
    try {
      const started = await sso.start({
        redirectUri: sso.redirectUri(publicOrigin(c.req.raw, trusted)),
        next,
      });
      const maxAge = Math.max(1, Math.ceil((started.expiresAt - ctx.now()) / 1000));
      return redirect(started.location, 303, {
        "set-cookie": bindingCookie(started.binding, maxAge, cameOverHttps(c.req.raw, trusted)),
        "cache-control": "no-store",
      });
    } catch (error) {
      if (!(error instanceof SsoError)) throw error;
      return htmlPage(loginPage(next, error.message, sso.displayName), error.status);
    }
  });

  app.get(SSO_CALLBACK_PATH, async (c) => {
    const secure = cameOverHttps(c.req.raw, c.env?.trustedProxy === true);
    const clearBinding = bindingCookie("", 0, secure);
    const binding = readCookie(c.req.header("cookie") ?? null, BINDING_COOKIE);
    try {
      const signed = await sso.finish(new URL(c.req.url).searchParams, binding === "" ? null : binding);
      const identity = { kind: "sso", ...signed.identity } as const;
      const token = sessions.open(identity, ctx.now());
      ctx.manage.audit.signin(auditActor(c, identity), true, "sso", { role: identity.role });
      return htmlPage(signedInPage(safeNext(signed.next)), 200, [
        sessionCookie(token, SSO_SESSION_MAX_AGE_S, secure),
        clearBinding,
      ]);
    } catch (error) {
      if (!(error instanceof SsoError)) throw error;
      // Who was refused is the provider's to say; the row keeps the reason (no code, token or secret in it).
      ctx.manage.audit.signin(auditActor(c, undefined), false, "sso", {
        failure: error.failure,
        reason: error.message,
      });
      return htmlPage(loginPage("/dashboard/ui", error.message, sso.displayName), error.status, [
        clearBinding,
      ]);
    }
  });
  return app;
}
