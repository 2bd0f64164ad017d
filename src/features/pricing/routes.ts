import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { priceView } from "./state.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, readBody } from "../../dashboard/validation.ts";

const rate = z.number({ error: "must be a number of USD per million tokens" }).refine(
  (n) => Number.isFinite(n) && n >= 0,
  "must not be negative",
);
const schema = z.object({
  model: z.string({ error: "must be a string" }).trim().min(1, "is required").max(300, "is too long"),
  input_per_mtok: rate,
  output_per_mtok: rate,
  cache_creation_per_mtok: rate.default(0),
  cache_read_per_mtok: rate.default(0),
  per_image: z.record(z.string().min(1), rate).optional(),
  per_second: rate.optional(),
  per_mchar: rate.optional(),
  per_search_unit: rate.optional(),
});

/** Pricing overrides: create or replace, delete. */
export function pricingRoutes(ctx: DashboardContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const pricing = ctx.manage.pricing;

  app.post("/dashboard/api/pricing", async (c) => {
    const input = await readBody(c, "POST /pricing", schema);
    const price = pricing.set(input.model, {
      inputPerMtok: input.input_per_mtok,
      outputPerMtok: input.output_per_mtok,
      cacheCreationPerMtok: input.cache_creation_per_mtok,
      cacheReadPerMtok: input.cache_read_per_mtok,
      ...(input.per_image === undefined ? {} : { perImage: input.per_image }),
      ...(input.per_second === undefined ? {} : { perSecond: input.per_second }),
      ...(input.per_mchar === undefined ? {} : { perMchar: input.per_mchar }),
      ...(input.per_search_unit === undefined ? {} : { perSearchUnit: input.per_search_unit }),
    });
    return answer("POST /pricing", { ok: true, price: priceView(input.model, price) });
  });

  // Model ids contain slashes; take everything after the prefix, URL-encoded or not.
  app.delete("/dashboard/api/pricing/*", (c) => {
    const raw = c.req.path.slice("/dashboard/api/pricing/".length);
    let model: string;
    try {
      model = decodeURIComponent(raw);
    } catch {
      model = raw;
    }
    pricing.delete(model);
    return answer("DELETE /pricing/:model", { ok: true });
  });
  return app;
}
