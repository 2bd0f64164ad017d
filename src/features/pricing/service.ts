import type { PriceConfig } from "../../config/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField, notFound } from "../field_error.ts";

/** Pricing overrides by model id: create or replace, delete. */
export class PricingService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** Sets the override for a model; rates (per token, image, second or character) are never negative. */
  set(model: string, price: PriceConfig): PriceConfig {
    const { perImage, ...rates } = price;
    for (const [field, rate] of Object.entries(rates)) {
      if (!Number.isFinite(rate) || rate < 0) throw invalidField(snakeCase(field), "must not be negative");
    }
    for (const [variant, rate] of Object.entries(perImage ?? {})) {
      if (!Number.isFinite(rate) || rate < 0) {
        throw invalidField("per_image", `the price of "${variant}" must not be negative`);
      }
    }
    this.#deps.store.pricing.upsert(model, price, this.#deps.now());
    this.#deps.reload();
    return price;
  }

  /** Removes a model's override; 404 when it has none. */
  delete(model: string): void {
    if (!this.#deps.store.pricing.delete(model)) throw notFound(`No pricing override for "${model}"`);
    this.#deps.reload();
  }
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
}
