import type { ComboConfig, ProviderConfig } from "../config/mod.ts";
import { type ModelKind, modelKindOf } from "../routing/mod.ts";

/** One routable model id and who serves it. */
export interface CatalogEntry {
  /** `<prefix>/<model>` or a combo name. */
  readonly id: string;
  /** The first provider account serving it, or "combo". */
  readonly ownedBy: string;
  readonly kind: "model" | "combo";
  /** What the model makes, from its name (a combo: its first member's). */
  readonly modelKind: ModelKind;
}

/**
 * Every `<prefix>/<model>` of enabled providers (a model served by several accounts of one prefix is
 * listed once) followed by every combo.
 */
export function modelCatalog(
  providers: readonly ProviderConfig[],
  combos: readonly ComboConfig[],
): CatalogEntry[] {
  const seen = new Set<string>();
  const entries: CatalogEntry[] = [];
  for (const provider of providers) {
    if (!provider.enabled) continue;
    for (const model of provider.models) {
      const id = `${provider.prefix}/${model}`;
      if (seen.has(id)) continue;
      seen.add(id);
      entries.push({ id, ownedBy: provider.id, kind: "model", modelKind: modelKindOf(model) });
    }
  }
  for (const combo of combos) {
    if (seen.has(combo.name)) continue;
    seen.add(combo.name);
    entries.push({
      id: combo.name,
      ownedBy: "combo",
      kind: "combo",
      modelKind: modelKindOf(combo.models[0]?.split("/").slice(1).join("/") ?? ""),
    });
  }
  return entries;
}
