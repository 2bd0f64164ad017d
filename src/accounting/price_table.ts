import type { Price } from "./price.ts";

/** Prices keyed by lower-cased model id, built once at load and on reload. */
export interface PriceTable {
  readonly entries: ReadonlyMap<string, { readonly model: string; readonly price: Price }>;
}

/** A price found for a model, with the table entry that matched. */
export interface PriceMatch {
  readonly model: string;
  readonly price: Price;
}

/** Merges builtin prices with overrides; an override wins over a builtin of the same id. */
export function buildPriceTable(
  builtins: Readonly<Record<string, Price>>,
  overrides: Readonly<Record<string, Price>>,
): PriceTable {
  const entries = new Map<string, { model: string; price: Price }>();
  for (const [model, price] of Object.entries(builtins)) entries.set(model.toLowerCase(), { model, price });
  for (const [model, price] of Object.entries(overrides)) entries.set(model.toLowerCase(), { model, price });
  return { entries };
}

/**
 * Finds the price of a model by progressive matching: the full name, then the part after the last
 * slash, each first exactly and then by ever shorter `-`-separated prefixes
 * (`openai/gpt-4o-mini-2024-07-18` → `gpt-4o-mini-2024-07-18` → … → `gpt-4o-mini`). A `(…)` thinking
 * suffix or `:tag` is ignored. Returns null when nothing matches; such a model costs nothing.
 */
export function lookupPrice(table: PriceTable, model: string): PriceMatch | null {
  const lowered = model.trim().toLowerCase();
  const exact = table.entries.get(lowered);
  if (exact) return exact;
  const name = stripDecorations(lowered);
  const slash = name.lastIndexOf("/");
  const candidates = slash >= 0 ? [name, name.slice(slash + 1)] : [name];
  for (const candidate of candidates) {
    const found = progressiveMatch(table, candidate);
    if (found) return found;
  }
  return null;
}

// Shortens only the part after the last slash, so `openrouter/gpt-4o-x` tries `openrouter/gpt-4o`
// (a namespaced override) before the bare candidate falls back to the builtin `gpt-4o`.
function progressiveMatch(table: PriceTable, candidate: string): PriceMatch | null {
  const slash = candidate.lastIndexOf("/");
  const head = candidate.slice(0, slash + 1);
  const segments = candidate.slice(slash + 1).split("-");
  for (let n = segments.length; n >= 1; n--) {
    const key = head + segments.slice(0, n).join("-");
    if (key === head) continue;
    const found = table.entries.get(key);
    if (found) return found;
  }
  return null;
}

function stripDecorations(model: string): string {
  return model.replace(/\([^()/]*\)$/, "").replace(/:[^:/]*$/, "");
}
