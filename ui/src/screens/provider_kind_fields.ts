/**
 * The provider form's kind-specific part: what the kind needs, the free-tier preset picker, Kiro's region and
 * Google Cloud Code's project.
 */
import { html, nothing, type TemplateResult } from "lit";
import type { ApiType, FreeTierPresetView } from "../../../src/features/providers/contract.ts";
import { API_TYPE_WORDING } from "../lib/api_types.ts";
import { inputValue } from "../lib/form.ts";
import { isAzure, type ProviderForm, takesProject, takesRegion } from "./provider_form.ts";

/** What the kind fields need from the form screen. */
export interface KindFieldsContext {
  readonly form: ProviderForm;
  readonly presets: readonly FreeTierPresetView[];
  /** The chosen free-tier preset. */
  readonly pick: (preset: FreeTierPresetView) => void;
  readonly patch: (change: Partial<ProviderForm>) => void;
  /** The error the server or the checks named for a field, or "". */
  readonly error: (field: string) => string;
}

/** The note, the free-tier preset select, and the region / project fields of the kinds that take them. */
export function kindFields(ctx: KindFieldsContext): TemplateResult | typeof nothing {
  const { form, presets, pick } = ctx;
  const apiType: ApiType = form.apiType;
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
  const extra = takesRegion(apiType)
    ? optionalField(
      ctx,
      "region",
      "AWS region",
      "Optional: the API hosts' region (e.g. eu-central-1); empty uses the credential's own",
      "us-east-1",
    )
    : takesProject(apiType)
    ? optionalField(
      ctx,
      "project",
      "Google Cloud project",
      "Optional: used instead of finding the project on first use",
      "my-project-123",
    )
    : isAzure(apiType)
    ? azureFields(ctx)
    : nothing;
  if (!note && picker === nothing && extra === nothing) return nothing;
  return html`${note ? html`<p class="full muted kind-note">${note}</p>` : nothing}${picker}${extra}`;
}

/** Azure: the API version and the model → deployment names. */
function azureFields(ctx: KindFieldsContext): TemplateResult {
  const versionError = ctx.error("azure_api_version");
  const deploymentsError = ctx.error("azure_deployments");
  return html`
    <gw-field label="API version" hint="v1 (the v1 API), preview, or a dated version such as 2024-10-21"
      .error=${versionError}>
      <input name="azure_api_version" .value=${ctx.form.azureApiVersion} placeholder="v1" autocomplete="off"
        aria-invalid=${versionError !== ""} @input=${(e: Event) =>
          ctx.patch({ azureApiVersion: inputValue(e) })}>
    </gw-field>
    <gw-field class="full" label="Deployments"
      hint="One model=deployment per line; a model without a line is called by its own name"
      .error=${deploymentsError}>
      <textarea name="azure_deployments" rows="3" .value=${ctx.form.azureDeployments}
        placeholder="gpt-4.1=my-gpt41-deployment" aria-invalid=${deploymentsError !== ""}
        @input=${(e: Event) => ctx.patch({ azureDeployments: inputValue(e) })}></textarea>
    </gw-field>
  `;
}

function optionalField(
  ctx: KindFieldsContext,
  name: "region" | "project",
  label: string,
  hint: string,
  placeholder: string,
): TemplateResult {
  const error = ctx.error(name);
  return html`
    <gw-field label=${label} hint=${hint} .error=${error}>
      <input name=${name} .value=${ctx.form[name]} placeholder=${placeholder} autocomplete="off"
        aria-invalid=${error !== ""} @input=${(e: Event) => ctx.patch({ [name]: inputValue(e) })}>
    </gw-field>
  `;
}
