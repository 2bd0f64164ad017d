import type { ComboConfig, ProviderConfig } from "../config/mod.ts";
import { kindOfModel, type ModelKind } from "../routing/mod.ts";

/** One routable model id and who serves it. */
export interface CatalogEntry {
  /** `<prefix>/<model>` or a combo name. */
  readonly id: string;
  /** The first provider account serving it, or "combo". */
  readonly ownedBy: string;
  readonly kind: "model" | "combo";
  /** What the model makes: as its provider declared, else from its name (a combo: its first member's). */
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
      entries.push({
        id,
        ownedBy: provider.id,
        kind: "model",
        modelKind: kindOfModel(model, provider.kinds),
      });
    }
  }
  const kindOfRef = (ref: string): ModelKind => {
    const slash = ref.indexOf("/");
    const model = ref.slice(slash + 1);
    const prefix = ref.slice(0, Math.max(slash, 0));
    const declared = providers.find((p) =>
      p.prefix === prefix && p.kinds !== undefined && Object.hasOwn(p.kinds, model)
    );
    return kindOfModel(model, declared?.kinds);
  };
  for (const combo of combos) {
    if (seen.has(combo.name)) continue;
    seen.add(combo.name);
    entries.push({
      id: combo.name,
      ownedBy: "combo",
      kind: "combo",
      modelKind: kindOfRef(combo.models[0] ?? ""),
    });
  }
  return entries;
}
