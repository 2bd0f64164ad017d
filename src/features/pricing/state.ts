import { buildPriceTable, BUILTIN_KIND_PRICES, BUILTIN_PRICES, lookupPrice } from "../../accounting/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { UnpricedModel } from "../../storage/mod.ts";
import type { PriceConfig } from "../../config/mod.ts";
import { type SectionInput, windowStart } from "../../dashboard/state/common.ts";
import type { PriceView, PricingSection } from "./contract.ts";

/** Builtin prices, overrides, and models used without a price. */
export function pricingSection({ gateway }: SectionInput): PricingSection {
  return {
    // The embedding, image and audio builtins too: the recorder prices with both tables.
    builtin: Object.entries({ ...BUILTIN_PRICES, ...BUILTIN_KIND_PRICES }).map(([m, p]) => priceView(m, p)),
    overrides: Object.entries(gateway.state.pricing).map(([m, p]) => priceView(m, p)),
    unpriced: unpricedModels(gateway, windowStart(gateway.now(), 30)).map((u) => ({
      model: u.model,
      requests: u.requests,
      input_tokens: u.inputTokens,
      output_tokens: u.outputTokens,
    })),
  };
}

/** A price in the snake_case shape of the YAML file. */
export function priceView(model: string, price: PriceConfig): PriceView {
  return {
    model,
    input_per_mtok: price.inputPerMtok,
    output_per_mtok: price.outputPerMtok,
    cache_creation_per_mtok: price.cacheCreationPerMtok,
    cache_read_per_mtok: price.cacheReadPerMtok,
    ...(price.perImage === undefined ? {} : { per_image: price.perImage }),
    ...(price.perSecond === undefined ? {} : { per_second: price.perSecond }),
    ...(price.perMchar === undefined ? {} : { per_mchar: price.perMchar }),
    ...(price.perSearchUnit === undefined ? {} : { per_search_unit: price.perSearchUnit }),
  };
}

/**
 * Models used without a price since `fromDay` that still have none: a model priced since (an override, exact
 * or by the prefix match the recorder uses) is no longer a reason for a banner.
 */
export function unpricedModels(gateway: DashboardContext, fromDay: number): UnpricedModel[] {
  const table = buildPriceTable({ ...BUILTIN_PRICES, ...BUILTIN_KIND_PRICES }, gateway.state.pricing);
  return gateway.reads.usageStats.unpriced(fromDay).filter((u) => lookupPrice(table, u.model) === null);
}
