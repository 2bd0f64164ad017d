import { type Context, Hono } from "hono";
import { clientAddress } from "../../http/forwarded.ts";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { InventoryIngestReport } from "./contract.ts";
import type { IngestReport, SubmittedKey } from "./service.ts";
import { GatewayError } from "../../model/mod.ts";
import { digestsEqual, hashApiKey } from "../../security/api_key.ts";
import type { AppEnv } from "../../http/env.ts";
import { jsonObject } from "../../dashboard/validation.ts";
import { parseInput } from "../input.ts";

const text = (max: number) => z.string({ error: "must be a string" }).max(max, "is too long");
const pushedKey = z.object({
  key: text(20_000).min(1, "is required"),
  provider: text(100).optional(),
  label: text(200).optional(),
  base_url: text(2000).optional(),
});
const schema = z.union([
  z.object({ keys: z.array(pushedKey).min(1, "needs at least one key"), node_id: text(200).optional() }),
  pushedKey.extend({ node_id: text(200).optional() }),
]);

/**
 * The admission check of one submission: counts its keys against the client's budget, the one that push,
 * Add Keys and import share; a 429 with Retry-After past the limit.
 */
export function admitter(ctx: DashboardContext, c: Context<AppEnv>): (keys: number) => void {
  return (keys) => limitSubmission(ctx, c, keys);
}

function limitSubmission(ctx: DashboardContext, c: Context<AppEnv>, keys: number): void {
  const taken = ctx.manage.inventory.submissions.take(clientAddress(c.req.raw, c.env), keys, ctx.now());
  if (!taken.ok) {
    const detail = `Too many keys submitted; try again in ${taken.retryAfterS} s`;
    throw new GatewayError(429, "rate_limit", detail, {
      fixedBody: { detail },
      headers: { "retry-after": String(taken.retryAfterS) },
    });
  }
}

/** The response of a submission: 201 when something new was registered. */
export function ingestAnswer(c: Context<AppEnv>, report: IngestReport): Response {
  // The contract's shape is what the UI reads: the management report must keep fitting it.
  const answer: InventoryIngestReport = report;
  const created = report.summary.registered + report.summary.updated > 0;
  return c.json(answer, created ? 201 : 200);
}

/**
 * Programmatic key ingestion. It has its own bearer token (INVENTORY_PUSH_TOKEN), compared in constant
 * time; dashboard sign-in is neither needed nor sufficient. Keys whose provider cannot be told from their
 * shape are rejected rather than filed as unidentified (a script can always say which provider).
 */
export function inventoryRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/dashboard/api/inventory/push", async (c) => {
    const token = ctx.pushToken();
    if (!token) {
      const detail = "Inventory push is disabled: INVENTORY_PUSH_TOKEN is not set";
      throw new GatewayError(503, "unavailable", detail, { fixedBody: { detail } });
    }
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    if (!digestsEqual(hashApiKey(presented), hashApiKey(token))) {
      throw new GatewayError(401, "authentication", "Invalid push token", {
        fixedBody: { detail: "Invalid push token" },
      });
    }
    const input = parseInput(schema, await jsonObject(c));
    const node = input.node_id;
    const list = "keys" in input ? input.keys : [input];
    const keys: SubmittedKey[] = list.map((k) => ({
      key: k.key,
      provider: k.provider,
      label: k.label,
      baseUrl: k.base_url,
      sourceNode: node,
    }));
    const pending = ctx.manage.audit.begin();
    const report = ctx.manage.inventory.ingest(keys, { requireProvider: true, admit: admitter(ctx, c) });
    // Pushed outside the dashboard's sign-in, so the audit middleware never sees it: written here, with
    // counts only (the keys themselves never reach the audit log).
    ctx.manage.audit.end(
      pending,
      { actor: `push:${node ?? "unnamed"}`, actorKind: "system", address: clientAddress(c.req.raw, c.env) },
      {
        action: "inventory.push",
        target: "inventory",
        request: { keys: keys.length, summary: report.summary },
      },
    );
    return ingestAnswer(c, report);
  });
  return app;
}
