import type { Usage } from "../model/usage.ts";
import type { Price } from "./price.ts";

const PER_MTOK = 1_000_000;

/**
 * The USD cost of one request under the spec's invariant: the cache buckets are subsets of the input
 * total, so only the rest is billed at the plain input rate. No price (unknown model) costs 0.
 */
export function costOf(usage: Usage, price: Price | null): number {
  if (price === null) return 0;
  const uncached = Math.max(usage.inputTotal - usage.cacheWrite - usage.cacheRead, 0);
  return (
    uncached * price.inputPerMtok +
    usage.cacheWrite * price.cacheCreationPerMtok +
    usage.cacheRead * price.cacheReadPerMtok +
    usage.output * price.outputPerMtok
  ) / PER_MTOK;
}
