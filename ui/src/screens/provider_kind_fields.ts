/** The provider form's kind-specific part: what the kind needs, and the free-tier preset picker. */
import { html, nothing, type TemplateResult } from "lit";
import type { ApiType, FreeTierPresetView } from "../../../src/dashboard/contract/mod.ts";
import { API_TYPE_WORDING } from "../lib/api_types.ts";
import { inputValue } from "../lib/form.ts";

/** The note and, for the free tier, a preset select that hands the chosen preset to `pick`. */
export function kindFields(
  apiType: ApiType,
  presets: readonly FreeTierPresetView[],
  pick: (preset: FreeTierPresetView) => void,
): TemplateResult | typeof nothing {
  const note = API_TYPE_WORDING[apiType].note;
  const picker = apiType === "free_tier" && presets.length > 0
    ? html`
      <gw-field class="full" label="Free provider" hint="Fills the base URL and models">
        <select name="free_tier_preset" @change=${(e: Event) => {
          const chosen = presets.find((p) => p.id === inputValue(e));
          if (chosen) pick(chosen);
        }}>
              <option value="">Choose a free provider…</option>
              ${presets.map((p) => html`<option value=${p.id}>${p.label}</option>`)}
            </select>
      </gw-field>
    `
    : nothing;
  if (!note && picker === nothing) return nothing;
  return html`${note ? html`<p class="full muted kind-note">${note}</p>` : nothing}${picker}`;
}
