import type { DashboardContext } from "../../dashboard/context.ts";
import type { SectionInput } from "../../dashboard/state/common.ts";
import type { ComboRecord } from "../../storage/mod.ts";
import type { CombosSection, ComboView } from "./contract.ts";

/** Combos, the combo strategy, and the routable ids to pick members from. */
export function combosSection({ gateway }: SectionInput): CombosSection {
  const models = new Set<string>();
  for (const p of gateway.state.providers) {
    if (p.enabled) { for (const m of p.models) models.add(`${p.prefix}/${m}`); }
  }
  return {
    combos: gateway.state.combos.map((c) => comboView(c, gateway)),
    strategy: gateway.state.settings.combo_strategy,
    sticky_limit: gateway.state.settings.combo_sticky_limit,
    models: [...models].sort(),
  };
}

/**
 * A combo with the members nothing can route: routing sends any `<prefix>/<model>` to the providers of that
 * prefix (their model lists are suggestions, not a filter), so only a prefix no enabled provider has is flagged.
 */
export function comboView(combo: ComboRecord, gateway: DashboardContext): ComboView {
  const prefixes = new Set(gateway.state.providers.filter((p) => p.enabled).map((p) => p.prefix));
  const routable = (member: string) => prefixes.has(member.slice(0, member.indexOf("/")));
  return {
    id: combo.id,
    name: combo.name,
    models: [...combo.models],
    unroutable: combo.models.filter((m) => !routable(m)),
  };
}
