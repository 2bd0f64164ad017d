import { Hono } from "hono";
import type { Context } from "hono";
import { loginRefusal, SESSION_MAX_AGE_S } from "./sessions.ts";
import type { DashboardContext } from "./context.ts";
import { DashboardSessions } from "./sessions.ts";
import type { AppEnv } from "../http/env.ts";
import { cameOverHttps } from "../http/forwarded.ts";
import { readCookie, SESSION_COOKIE, sessionCookie } from "./cookies.ts";
import { loginPage } from "./login_page.ts";
import { auditActor } from "../features/audit/routes.ts";
import { htmlPage, privateJson, redirect } from "../http/responses.ts";

/** Where sign-in returns to: only dashboard paths on this site, else the overview. */
export function safeNext(next: unknown): string {
  if (typeof next !== "string") return "/dashboard/ui";
  const ok = (next === "/dashboard" || next.startsWith("/dashboard/") || next.startsWith("/dashboard?")) &&
    !next.includes("\\") && !/[\r\n]/.test(next);
  return ok ? next : "/dashboard/ui";
}

/** GET/POST /dashboard/login and POST /dashboard/logout. */
export function loginRoutes(ctx: DashboardContext, sessions: DashboardSessions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const control = ctx.state;

  app.get(
    "/dashboard/login",
    (c) => htmlPage(loginPage(safeNext(c.req.query("next")), "", ctx.sso?.displayName ?? null), 200),
  );

  app.post("/dashboard/login", async (c) => {
    const wantsJson = (c.req.header("content-type") ?? "").includes("application/json");
    let apiKey = "";
    let nextRaw: unknown = undefined;
    try {
      if (wantsJson) {
        const body = await c.req.json() as Record<string, unknown>;
        apiKey = typeof body?.api_key === "string" ? body.api_key.trim() : "";
        nextRaw = body?.next;
      } else {
        const form = await c.req.parseBody();
        apiKey = typeof form.api_key === "string" ? form.api_key.trim() : "";
        nextRaw = form.next;
      }
    } catch {
      apiKey = "";
    }
    const next = safeNext(nextRaw);
    const identity = apiKey === "" ? null : control.identify(apiKey);
    const refusal = apiKey === "" ? "API key is required" : loginRefusal(identity);
    if (refusal !== null || identity === null) {
      const message = refusal ?? "Invalid API key";
      // A refused sign-in names the key only by what the gateway knows of it, never by the text typed.
      ctx.manage.audit.signin(auditActor(c, identity ?? undefined), false, "api_key", { reason: message });
      if (wantsJson) return c.json({ error: { message, type: "authentication" } }, 401);
      return htmlPage(loginPage(next, message, ctx.sso?.displayName ?? null), 401);
    }
    const token = sessions.open(identity, ctx.now());
    ctx.manage.audit.signin(auditActor(c, identity), true, "api_key");
    return redirect(next, 303, {
      "set-cookie": sessionCookie(
        token,
        SESSION_MAX_AGE_S,
        cameOverHttps(c.req.raw, c.env?.trustedProxy === true),
      ),
      "cache-control": "no-store",
    });
  });

  app.post("/dashboard/logout", (c) => logout(c, sessions));
  return app;
}

function logout(c: Context<AppEnv>, sessions: DashboardSessions): Response {
  sessions.close(readCookie(c.req.header("cookie") ?? null, SESSION_COOKIE));
  const headers = {
    "set-cookie": sessionCookie("", 0, cameOverHttps(c.req.raw, c.env?.trustedProxy === true)),
    "cache-control": "no-store",
  };
  if ((c.req.header("accept") ?? "").includes("application/json")) {
    return privateJson({ ok: true }, 200, headers);
  }
  return redirect("/dashboard/login", 303, headers);
}
