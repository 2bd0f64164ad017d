/** The dashboard's HTTP face: sign-in, access control, redirects, management and state APIs, live stream. */
import { Hono } from "hono";
import type { DashboardContext } from "./context.ts";
import { SCREENS } from "./screens.ts";
import { DashboardSessions } from "./sessions.ts";
import type { AppEnv } from "../http/env.ts";
import { adminOnlyChanges, dashboardAccess, sameOriginMutations } from "./access.ts";
import { auditChanges, auditRoutes } from "../features/audit/routes.ts";
import { budgetsRoutes } from "../features/budgets/routes.ts";
import { groupsRoutes } from "../features/groups/routes.ts";
import { usageExportRoutes } from "./usage_export_routes.ts";
import { combosRoutes } from "../features/combos/routes.ts";
import { configRoutes } from "../features/backup/routes.ts";
import { inventoryManageRoutes } from "../features/inventory/routes.ts";
import { inventoryRoutes } from "../features/inventory/push_routes.ts";
import { keysRoutes } from "../features/keys/routes.ts";
import { liveRoutes } from "./live_routes.ts";
import { loginRoutes } from "./login_routes.ts";
import { ssoRoutes } from "./sso_routes.ts";
import { pricingRoutes } from "../features/pricing/routes.ts";
import { providersRoutes } from "../features/providers/routes.ts";
import { requestLogsRoutes } from "../features/request_logs/routes.ts";
import { routingRoutes } from "../features/routing/routes.ts";
import { settingsRoutes } from "../features/settings/routes.ts";
import { signinRoutes } from "../features/signin/routes.ts";
import { stateRoutes } from "./state_routes.ts";
import { redirect } from "../http/responses.ts";

/** Former page URLs that now live under /dashboard/ui: every screen but Overview (which is /dashboard). */
export const LEGACY_SCREENS = SCREENS.map((s) => s.id).filter((id) => id !== "overview");

/**
 * Public routes (redirects, sign-in, inventory push with its own token). Mount before
 * `dashboardProtected` and before anything else under /dashboard.
 */
export function dashboardPublicRoutes(ctx: DashboardContext, sessions: DashboardSessions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const toUi = (suffix: string) => (c: { req: { url: string } }) => {
    const search = new URL(c.req.url).search;
    return redirect(`/dashboard/ui${suffix}${search}`, 302);
  };
  for (const path of ["/", "/dashboard", "/dashboard/"]) app.on(["GET", "HEAD"], path, toUi(""));
  for (const screen of LEGACY_SCREENS) app.on(["GET", "HEAD"], `/dashboard/${screen}`, toUi(`/${screen}`));
  app.use("/dashboard/*", sameOriginMutations());
  app.route("/", loginRoutes(ctx, sessions));
  app.route("/", ssoRoutes(ctx, sessions));
  app.route("/", inventoryRoutes(ctx));
  return app;
}

/** The dashboard: public routes, then access control over everything else under /dashboard (the UI too). */
export function dashboardRoutes(
  ctx: DashboardContext,
  version: string,
  ui?: Hono<AppEnv>,
  sessions: DashboardSessions = new DashboardSessions(ctx),
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route("/", dashboardPublicRoutes(ctx, sessions));
  app.use("/dashboard/*", dashboardAccess(ctx.state, sessions, ctx.now));
  app.use("/dashboard/*", adminOnlyChanges(ctx.identity.role));
  app.use("/dashboard/*", auditChanges(ctx));
  if (ui) app.route("/", ui);
  app.route("/", liveRoutes(ctx));
  app.route("/", stateRoutes(ctx, version));
  app.route("/", keysRoutes(ctx));
  app.route("/", budgetsRoutes(ctx));
  app.route("/", groupsRoutes(ctx));
  app.route("/", usageExportRoutes(ctx));
  app.route("/", providersRoutes(ctx));
  app.route("/", signinRoutes(ctx));
  app.route("/", combosRoutes(ctx));
  app.route("/", settingsRoutes(ctx));
  app.route("/", configRoutes(ctx));
  app.route("/", requestLogsRoutes(ctx));
  app.route("/", pricingRoutes(ctx));
  app.route("/", routingRoutes(ctx));
  app.route("/", inventoryManageRoutes(ctx));
  app.route("/", auditRoutes(ctx));
  return app;
}
