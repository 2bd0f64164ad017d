import { Hono } from "hono";
import type { DashboardContext } from "../../dashboard/context.ts";
import { logDetail, requestRowView } from "./state.ts";
import type { AppEnv } from "../../http/env.ts";
import { notFound } from "../field_error.ts";
import { answer, idParam } from "../../dashboard/validation.ts";
import { download } from "../../http/responses.ts";
import { parseRequestFilter } from "./filter.ts";
import { exportRequests } from "./export.ts";

/** Request logs: export (with the listing's filters), detail, one request by uid, clear. */
export function requestLogsRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const store = ctx.reads;

  app.get("/dashboard/api/request-logs/export", (c) => {
    const query = new URL(c.req.url).searchParams;
    const filter = parseRequestFilter(query, (name) => store.keys.findByName(name)?.id);
    ctx.flushWrites();
    return download(
      JSON.stringify(exportRequests(store, filter)),
      "application/json",
      "gateway-request-logs.json",
    );
  });

  app.get("/dashboard/api/request-logs/:id", (c) => {
    const id = idParam(c.req.param("id"), "Request log");
    ctx.flushWrites();
    const log = store.requestLogs.get(id);
    if (!log) throw notFound(`Request log ${id} does not exist`);
    return answer("GET /request-logs/:id", { log: logDetail(log) });
  });

  // No bodies: the listing's own row, so a viewer's Playground can read its request's cost and account.
  app.get("/dashboard/api/requests/:uid", (c) => {
    const uid = c.req.param("uid");
    ctx.flushWrites();
    const row = store.requests.byUid(uid);
    if (!row) throw notFound(`Request ${uid} is not in the request log (yet)`);
    return answer("GET /requests/:uid", { request: requestRowView(row) });
  });

  app.delete("/dashboard/api/request-logs", () => {
    ctx.flushWrites();
    return answer("DELETE /request-logs", { ok: true, deleted: ctx.manage.requestLogs.clear() });
  });
  return app;
}
