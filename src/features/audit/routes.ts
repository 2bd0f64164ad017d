import { Hono, type MiddlewareHandler } from "hono";
import type { Context } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { DashboardIdentity } from "../../dashboard/identity.ts";
import type { AppEnv } from "../../http/env.ts";
import { clientAddress } from "../../http/forwarded.ts";
import type { AuditActor } from "./service.ts";
import { auditCsv, auditFilter, auditJsonl, auditView } from "./state.ts";
import { answer } from "../../dashboard/validation.ts";
import { download } from "../../http/responses.ts";
import { invalidField } from "../field_error.ts";
import { GatewayError } from "../../model/mod.ts";
import { AUDIT_REDACTED } from "../../security/audit_redaction.ts";

/** Request bodies larger than this are not copied into the audit row (bulk imports). */
const MAX_AUDITED_BODY = 64 * 1024;

/** Who a dashboard or API request acts as, for the audit log. */
export function auditActor(c: Context<AppEnv>, identity: DashboardIdentity | undefined): AuditActor {
  const address = clientAddress(c.req.raw, c.env);
  switch (identity?.kind) {
    case "db":
      return { actor: identity.name, actorKind: "key", address };
    case "static":
      return { actor: identity.label, actorKind: "static_key", address };
    case "sso":
      return { actor: identity.email, actorKind: "sso", address };
    default:
      return { actor: "anonymous", actorKind: "system", address };
  }
}

/**
 * The one place dashboard and API changes are audited: every POST/PUT/PATCH/DELETE under
 * /dashboard/api that succeeds appends a row naming the route it reached, so a route added later is
 * covered without audit code of its own. Mount after access control (it needs the identity).
 */
export function auditChanges(ctx: DashboardContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (
      method === "GET" || method === "HEAD" || method === "OPTIONS" ||
      !c.req.path.startsWith("/dashboard/api/")
    ) {
      return await next();
    }
    const request = await requestBody(c.req.raw);
    const pending = ctx.manage.audit.begin();
    await next();
    // A refused request changed nothing (errors are answered by the app's handler, so `next` returns).
    if (c.res.status >= 400) return;
    // After `next`, the route path and parameters are the answering handler's, not this middleware's.
    const route = c.req.routePath;
    ctx.manage.audit.end(pending, auditActor(c, c.get("identity")), {
      action: routeAction(method, route),
      target: routeTarget(route, c.req.param() as Record<string, string>),
      request,
    });
  };
}

/** A copy of a JSON body (the handler still reads the original); undefined when there is none or it is large. */
async function requestBody(request: Request): Promise<unknown> {
  // Only a body whose size is declared and small: a clone of a streamed body would be read whole.
  const length = Number(request.headers.get("content-length") ?? "NaN");
  if (!request.body || !(length <= MAX_AUDITED_BODY)) return undefined;
  if (!(request.headers.get("content-type") ?? "").includes("json")) return undefined;
  const text = await request.clone().text();
  if (text.length > MAX_AUDITED_BODY) return undefined;
  try {
    return withheldStrings(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * The body's shape with every string withheld: a request may carry keys in any field and in any form (a
 * pasted token file in `text`), which no rule on names or values recognises. Names, numbers and booleans
 * say what was asked; the state the change left is in the snapshot diff, redacted by field.
 */
export function withheldStrings(value: unknown): unknown {
  if (typeof value === "string") return value === "" ? "" : AUDIT_REDACTED;
  if (Array.isArray(value)) return value.map(withheldStrings);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withheldStrings(v)]));
  }
  return value;
}

const VERBS: Record<string, string> = { POST: "create", PUT: "update", PATCH: "update", DELETE: "delete" };

/**
 * The action a route performs, from its pattern: `POST /dashboard/api/v2/keys` → `keys.create`,
 * `POST /dashboard/api/keys/:id` → `keys.update`; a POST to a verb (`/providers/:id/test`,
 * `/routing/clear-cooldowns`) is that verb: `providers.test`, `routing.clear-cooldowns`.
 */
export function routeAction(method: string, route: string): string {
  const parts = route.replace(/^\/dashboard\/api\/(v\d+\/)?/, "").split("/").filter((p) => p !== "");
  const words = parts.filter((p) => !p.startsWith(":") && p !== "*");
  const lastIsParam = parts.at(-1)?.startsWith(":") ?? false;
  if (method === "POST" && lastIsParam) return [...words, "update"].join(".");
  if (method === "POST" && words.length > 1) return words.join(".");
  return [...words, VERBS[method] ?? method.toLowerCase()].join(".");
}

/** What a route acted on: `keys:12`, `providers:openai`, or the collection (`settings`). */
export function routeTarget(route: string, params: Record<string, string>): string {
  const parts = route.replace(/^\/dashboard\/api\/(v\d+\/)?/, "").split("/").filter((p) => p !== "");
  const values = Object.values(params);
  return values.length === 0 ? (parts[0] ?? "") : `${parts[0]}:${values.join("/")}`;
}

/** GET /dashboard/api/audit: filtered rows, newest first; `format=csv|jsonl` downloads them. */
export function auditRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/dashboard/api/audit", (c) => {
    const filter = auditFilter(c.req.query());
    const rows = ctx.manage.audit.list(filter);
    const format = c.req.query("format");
    const exporting = format === "csv" || format === "jsonl";
    if (exporting && ctx.identity.role(c.get("identity")) !== "admin") {
      // Like every other export, a download is an administrator's (viewers read the screen).
      throw new GatewayError(403, "permission", "This dashboard account is a viewer: it cannot export");
    }
    if (format === "csv") return download(auditCsv(rows), "text/csv; charset=utf-8", "gateway-audit.csv");
    if (format === "jsonl") {
      return download(auditJsonl(rows), "application/x-ndjson", "gateway-audit.jsonl");
    }
    if (format !== undefined && format !== "json") {
      throw invalidField("format", 'must be "json", "csv" or "jsonl"');
    }
    return answer("GET /audit", { entries: rows.map(auditView) });
  });
  return app;
}
