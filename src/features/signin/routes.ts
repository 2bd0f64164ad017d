import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { hashApiKey } from "../../security/api_key.ts";
import type { SigninView } from "./mod.ts";
import type { AppEnv } from "../../http/env.ts";
import { accessVia } from "../../dashboard/access.ts";
import { readCookie, SESSION_COOKIE } from "../../dashboard/cookies.ts";
import { answer, readBody } from "../../dashboard/validation.ts";
import { notFound } from "../field_error.ts";
import type { Context } from "hono";

const startSchema = z.object({
  flow: z.enum(["device", "pkce"], { error: "must be device or pkce" }).optional(),
});
const redirectSchema = z.object({
  redirect_url: z.string({ error: "must be a string" }).max(8192, "is too long"),
});

/**
 * Connect (sign in) a subscription provider from the dashboard: start a device-code or PKCE sign-in, poll
 * it, paste the redirect URL, cancel. A sign-in belongs to the dashboard session that started it: another
 * session (even the same key's) gets 404. Answers carry codes and links, never a token.
 */
export function signinRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const base = "/dashboard/api/providers/:id/connect";

  app.post(base, async (c) => {
    const input = await readBody(c, "POST /providers/:id/connect", startSchema);
    const view = await ctx.signin.start(c.req.param("id"), owner(c), input.flow);
    return answer("POST /providers/:id/connect", view, 201);
  });

  app.get(
    `${base}/:signin`,
    (c) =>
      answer(
        "GET /providers/:id/connect/:signin",
        forProvider(c, ctx.signin.get(c.req.param("signin"), owner(c))),
      ),
  );

  app.post(`${base}/:signin/redirect`, async (c) => {
    const input = await readBody(c, "POST /providers/:id/connect/:signin/redirect", redirectSchema);
    const id = c.req.param("signin");
    forProvider(c, ctx.signin.get(id, owner(c)));
    return answer(
      "POST /providers/:id/connect/:signin/redirect",
      await ctx.signin.submit(id, owner(c), input.redirect_url),
    );
  });

  app.delete(`${base}/:signin`, (c) => {
    const id = c.req.param("signin");
    forProvider(c, ctx.signin.get(id, owner(c)));
    return answer("DELETE /providers/:id/connect/:signin", ctx.signin.cancel(id, owner(c)));
  });
  return app;
}

/** The sign-in only under its own provider's path. */
function forProvider(c: Context<AppEnv>, view: SigninView): SigninView {
  if (view.provider_id !== c.req.param("id")) {
    throw notFound(`Sign-in "${view.id}" does not exist or has ended`);
  }
  return view;
}

/**
 * Who a sign-in belongs to: the browser's dashboard session (a hash of its cookie), or for API callers the
 * key they present. Hashed, so the owner tag held in memory is no credential itself.
 */
function owner(c: Context<AppEnv>): string {
  if (accessVia(c.req.raw) === "cookie") {
    return `session:${hashApiKey(readCookie(c.req.header("cookie") ?? null, SESSION_COOKIE))}`;
  }
  const identity = c.get("identity");
  switch (identity.kind) {
    case "db":
      return `key:${identity.keyId}`;
    case "static":
      return `static:${identity.keyHash}`;
    case "sso":
      return `sso:${identity.issuer} ${identity.subject}`;
    case "anonymous":
      return "anonymous";
  }
}
