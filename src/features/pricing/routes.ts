import { Hono } from "hono";
import { z } from "zod";
import type { DashboardContext } from "../../dashboard/context.ts";
import { priceView } from "./state.ts";
import type { AppEnv } from "../../http/env.ts";
import { answer, readBody } from "../../dashboard/validation.ts";

/** A non-negative price in USD per `unit`. */
function usd(unit: string) {
  return z.number({ error: `must be a number of USD per ${unit}` }).refine(
    (n) => Number.isFinite(n) && n >= 0,
    "must not be negative",
  );
}
const rate = usd("million tokens");
/** An image variant: `<quality>@<size>`, `<quality>`, `@<size>` or `*` (see docs/media.md). */
const IMAGE_VARIANT = /^(\*|[a-z0-9_-]+(@\d+x\d+)?|@\d+x\d+)$/i;
const imagePrices = z.record(z.string(), usd("image")).superRefine((prices, context) => {
  const variants = Object.keys(prices);
  if (variants.length === 0) {
    context.addIssue({ code: "custom", message: "needs a variant (* for any image)" });
  }
  const bad = variants.find((variant) => !IMAGE_VARIANT.test(variant));
  if (bad !== undefined) {
    context.addIssue({
      code: "custom",
      message: `has the variant "${bad}"; write <quality>@<size>, <quality>, @<size> or *`,
    });
  }
});
const schema = z.object({
  model: z.string({ error: "must be a string" }).trim().min(1, "is required").max(300, "is too long"),
  input_per_mtok: rate,
  output_per_mtok: rate,
  cache_creation_per_mtok: rate.default(0),
  cache_read_per_mtok: rate.default(0),
  per_image: imagePrices.optional(),
  per_second: usd("second of audio").optional(),
  per_mchar: usd("million characters").optional(),
  per_search_unit: usd("search unit").optional(),
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
