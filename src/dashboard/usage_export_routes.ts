/**
 * `GET /dashboard/api/usage/export?days=30&by=key|group`: usage totals per client key or per key group
 * over a window, as CSV for spreadsheets and chargeback.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import { download } from "../http/responses.ts";
import type { DashboardContext } from "./context.ts";
import { groupTotals } from "./state/usage_sections.ts";
import { windowStart } from "./state/common.ts";

const WINDOWS = [1, 7, 30, 90, 365];
const COLUMNS = ["requests", "ok_requests", "input_tokens", "output_tokens", "cost_usd"];

/** The usage export route. */
export function usageExportRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/dashboard/api/usage/export", (c) => {
    const daysParam = Number(c.req.query("days") ?? "30");
    const days = WINDOWS.includes(daysParam) ? daysParam : 30;
    const by = c.req.query("by") === "group" ? "group" : "key";
    ctx.flushWrites();
    const perKey = ctx.reads.usageStats.byClient(windowStart(ctx.now(), days));
    const names = new Map(ctx.state.keys.map((k) => [k.id, k.name]));
    const rows = by === "group"
      ? groupTotals(perKey, ctx).map((g) => ({ name: g.key, totals: g }))
      : perKey.map((k) => ({ name: k.keyId === 0 ? k.label : names.get(k.keyId) ?? k.label, totals: k }));
    const lines = [[by, ...COLUMNS].join(",")];
    for (const { name, totals } of rows) {
      lines.push([
        csvCell(name),
        totals.requests,
        totals.okRequests,
        totals.inputTokens,
        totals.outputTokens,
        totals.cost.toFixed(6),
      ].join(","));
    }
    return download(
      `${lines.join("\n")}\n`,
      "text/csv; charset=utf-8",
      `gateway-usage-by-${by}-${days}d.csv`,
    );
  });
  return app;
}

/** A CSV cell: quoted when it holds a comma, quote or line break; a leading formula sign is neutralised. */
function csvCell(text: string): string {
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
