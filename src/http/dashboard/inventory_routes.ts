import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { GatewayError } from "../../model/mod.ts";
import { digestsEqual, hashApiKey } from "../../security/api_key.ts";
import type { AppEnv } from "../env.ts";
import { jsonObject, parseInput } from "./validation.ts";

const schema = z.object({
  keys: z.array(z.object({
    provider: z.string({ error: "must be a string" }).trim().min(1, "is required").max(100, "is too long")
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "letters, digits, '_', '.', ':' or '-' only"),
    key: z.string({ error: "must be a string" }).trim().min(8, "is too short").max(20_000, "is too long"),
    label: z.string().trim().max(200, "is too long").optional(),
  })).min(1, "needs at least one key").max(1000, "at most 1000 keys per push"),
});

/**
 * Programmatic key ingestion. It has its own bearer token (INVENTORY_PUSH_TOKEN), compared in constant
 * time; dashboard sign-in is neither needed nor sufficient.
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
    const results = ctx.manage.inventory.push(input.keys);
    const added = results.filter((r) => !r.duplicate).length;
    return c.json({ ok: true, added, duplicates: results.length - added, keys: results });
  });
  return app;
}
