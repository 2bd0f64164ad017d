import { html, nothing } from "lit";
import type {
  ApiType,
  ApiTypeOption,
  ProbeResult,
  ProviderView,
  VendorPresetView,
} from "../../../src/features/providers/contract.ts";
import { call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import type { ProviderTest } from "../components/gw_provider_card.ts";
import { API_TYPE_WORDING } from "../lib/api_types.ts";
import { kindFields } from "./provider_kind_fields.ts";
import type { ModelsPickedEvent, ProviderActionEvent } from "../lib/events.ts";
import { inputValue, splitList } from "../lib/form.ts";
import { formatLatency } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { FormScreen } from "./form_screen.ts";
import {
  azureFields,
  PROVIDER_FIELDS,
  providerBody,
  type ProviderForm,
  providerForm,
  validateProvider,
} from "./provider_form.ts";

/** Providers: create / edit / test / enable / disable / delete, with a Fetch Models helper. */
export class GwProvidersScreen extends FormScreen<ProviderForm> {
  static override properties = {
    fetching: { state: true },
    fetched: { state: true },
    tests: { state: true },
    deleting: { state: true },
    connecting: { state: true },
    draftTest: { state: true },
  };
  declare fetching: boolean;
  declare fetched: string[];
  declare tests: Record<string, ProviderTest>;
  declare deleting: ProviderView | null;
  declare connecting: ProviderView | null;
  /** Test Connection of the open form's unsaved values: running, or its outcome. */
  declare draftTest: ProviderTest | undefined;
  private state = new StateController(this, "providers", 15_000);

  constructor() {
    super();
    this.fetching = false;
    this.fetched = [];
    this.tests = {};
    this.deleting = null;
    this.connecting = null;
    this.draftTest = undefined;
    this.addEventListener("gw-provider-action", (e) => this.onAction(e));
  }

  protected override willUpdate(): void {
    if (this.takeAction() === "create") this.openForm(providerForm(null));
  }

  override render() {
    return html`
      <gw-page-header heading="Providers"
        description="Upstream connections. Providers that share a prefix are pooled for fallback.">
        <button class="primary" @click=${() => this.openForm(providerForm(null))}>${icon(
          "plus",
        )}Add provider</button>
      </gw-page-header>
            ${this.frame(this.state, (d) => this.cards(d.providers))}
            ${this.formDialog(this.state.data?.api_types ?? [])} ${this.deleteDialog()}
      <gw-connect-dialog .provider=${this.connecting} @gw-connected=${() => this.state.refresh()}
        @gw-connect-closed=${() => (this.connecting = null)}></gw-connect-dialog>
    `;
  }

  private cards(providers: readonly ProviderView[]) {
    if (providers.length === 0) {
      return html`
        <div class="card">
          <gw-empty icon="providers" heading="No providers yet"
            text="Add an upstream (any chat-completions compatible API, a messages API or a generate-content API) so the gateway has somewhere to send requests.">
            <button class="primary" @click=${() => this.openForm(providerForm(null))}>${icon(
              "plus",
            )}Add your first provider</button>
          </gw-empty>
        </div>
      `;
    }
    return html`<div class="grid-cards">${
      providers.map((p) =>
        html`<gw-provider-card data-provider=${p.id} .provider=${p} .test=${
          this.tests[p.id]
        }></gw-provider-card>`
      )
    }</div>`;
  }

  private onAction(e: ProviderActionEvent): void {
    const p = e.provider;
    switch (e.action) {
      case "test":
        return void this.test(p.id);
      case "edit":
        return this.edit(p);
      case "toggle":
        return void this.toggle(p, !p.enabled);
      case "delete":
        this.deleting = p;
        return;
      case "connect":
        this.connecting = p;
        return;
    }
  }

  /** The create / edit dialog; the kinds offered are the server's, those it cannot call greyed out. */
  private formDialog(apiTypes: readonly ApiTypeOption[]) {
    const f = this.form;
    const type = f ? API_TYPE_WORDING[f.apiType] : undefined;
    const signsIn = apiTypes.some((t) => t.api_type === f?.apiType && t.signs_in === true);
    return html`<gw-dialog wide .open=${f !== null} heading=${
      f?.editing ? `Edit ${f.editing}` : "Add provider"
    } @gw-close=${() => (this.form = null)}>
      ${
      f
        ? html`<form id="provider-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formErrorBanner()}
          <div class="form-grid">
            ${
          f.editing ? nothing : vendorField(this.state.data?.vendor_presets ?? [], (p) => this.pickVendor(p))
        }
            <gw-field label="ID" required .error=${
          this.fieldError("id")
        } hint="Unique per account, e.g. openai-work">
              <input name="id" .value=${f.id} ?disabled=${f.editing !== null} aria-invalid=${
          this.invalid("id")
        }
                @input=${(e: Event) => this.patch({ id: inputValue(e) })}>
            </gw-field>
            <gw-field label="Prefix" required .error=${
          this.fieldError("prefix")
        } hint="Clients ask for <prefix>/<model>">
              <input name="prefix" .value=${f.prefix} aria-invalid=${this.invalid("prefix")}
                @input=${(e: Event) => this.patch({ prefix: inputValue(e) })}>
            </gw-field>
            <gw-field label="Protocol" required .error=${this.fieldError("api_type")}
              hint="The wire format and auth the gateway speaks to it">
              <select name="api_type" @change=${(e: Event) =>
          this.patch({ apiType: inputValue(e) as ApiType })}>
                ${
          apiTypes.map((t) =>
            html`<option value=${t.api_type} ?selected=${t.api_type === f.apiType}>${
              API_TYPE_WORDING[t.api_type].label
            }</option>`
          )
        }
              </select>
            </gw-field>
            ${
          kindFields({
            form: f,
            presets: this.state.data?.free_tier_presets ?? [],
            pick: (p) => this.patch({ baseUrl: p.base_url, models: p.models.join("\n") }),
            patch: (change) => this.patch(change),
            error: (field) => this.fieldError(field),
          })
        }
            <gw-field label=${type?.urlLabel ?? "Base URL"} .error=${this.fieldError("base_url")} hint=${
          type?.url ? `e.g. ${type.url}` : "Leave empty for the provider's default"
        }>
              <input name="base_url" type="url" .value=${f.baseUrl} placeholder=${
          type?.url ?? ""
        } aria-invalid=${this.invalid("base_url")}
                @input=${(e: Event) => this.patch({ baseUrl: inputValue(e) })}>
            </gw-field>
            ${signsIn ? signInNote(this.keyField(f)) : this.keyField(f)}
            <gw-field class="full" label="Models" .error=${
          this.fieldError("models")
        } hint="Comma or newline separated model names this provider serves.">
              <textarea name="models" .value=${f.models} aria-invalid=${this.invalid("models")}
                @input=${(e: Event) => this.patch({ models: inputValue(e) })}></textarea>
            </gw-field>
          </div>
          <gw-model-picker .models=${this.fetched} ?fetching=${this.fetching}
            @gw-fetch-models=${this.fetchModels} @gw-models-picked=${this.addModels}></gw-model-picker>
          ${signsIn && !f.editing ? nothing : this.draftTestRow()}
        </form>`
        : nothing
    }
      ${this.formFooter("provider-form", f?.editing ? "Save changes" : "Add provider")}
    </gw-dialog>`;
  }

  /** The API key field (a blank key on edit keeps the stored one). */
  private keyField(f: ProviderForm) {
    return html`
      <gw-field class="full" label="API key" .error=${this.fieldError("api_key")}
        hint=${f.editing
          ? "Leave empty to keep the stored key."
          : "Stored in the gateway's database; never shown again."}>
        <input name="api_key" type="password" autocomplete="off" .value=${f.apiKey} aria-invalid=${this
          .invalid("api_key")}
          @input=${(e: Event) => this.patch({ apiKey: inputValue(e) })}>
      </gw-field>
    `;
  }

  /** Test Connection before saving: the form's values as they are, nothing stored. */
  private draftTestRow() {
    const t = this.draftTest;
    return html`<div class="row draft-test">
      <button type="button" class="sm" data-action="test-draft" ?disabled=${t === "running"}
        @click=${this.testDraft}>${t === "running" ? "Testing…" : "Test connection"}</button>
      ${
      t && t !== "running"
        ? html`<span class=${t.ok ? "ok" : "bad"} data-draft-test role="status">${t.text}</span>`
        : nothing
    }
    </div>`;
  }

  private deleteDialog() {
    const p = this.deleting;
    return html`
      <gw-dialog .open=${p !== null} heading="Delete provider?" @gw-close=${() => (this.deleting = null)}>
        <p>Delete <b class="mono">${p?.id}</b>? Requests for <code>${p
          ?.prefix}/…</code> will use other connections with the
              same prefix, if any. To pause it instead, disable it.</p>
        <button slot="footer" @click=${() => (this.deleting = null)}>Cancel</button>
        <button slot="footer" class="danger-solid" @click=${this.deleteItem}>Delete provider</button>
      </gw-dialog>
    `;
  }

  private openForm(form: ProviderForm): void {
    this.showForm(form);
    this.fetched = [];
    this.draftTest = undefined;
  }

  /** A vendor fills the protocol, base URL and suggested models; id and prefix only when still empty. */
  private pickVendor(p: VendorPresetView): void {
    const f = this.form;
    if (!f) return;
    this.patch({
      apiType: p.api_type,
      baseUrl: p.base_url,
      models: p.models.join("\n"),
      ...(f.id.trim() === "" ? { id: p.id } : {}),
      ...(f.prefix.trim() === "" ? { prefix: p.prefix } : {}),
    });
    this.fetched = [];
    this.draftTest = undefined;
  }

  private edit(p: ProviderView): void {
    this.openForm(providerForm(p));
  }

  private readonly addModels = (e: ModelsPickedEvent): void => {
    if (!this.form) return;
    const current = splitList(this.form.models);
    this.patch({ models: [...current, ...e.models.filter((m) => !current.includes(m))].join("\n") });
  };

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const body = providerBody(f);
    const result = await this.saveForm(
      validateProvider(f),
      PROVIDER_FIELDS,
      () =>
        f.editing
          ? call("PUT /providers/:id", { params: { id: f.editing }, body })
          : call("POST /providers", { body }),
    );
    if (!result) return;
    this.toast(f.editing ? `Saved ${body.id}` : `Added provider ${body.id}`);
    await this.state.refresh();
  };

  private readonly fetchModels = async (): Promise<void> => {
    const f = this.form;
    if (!f) return;
    this.fetching = true;
    const result = await call("POST /providers/fetch-models", {
      body: {
        api_type: f.apiType,
        base_url: f.baseUrl.trim(),
        api_key: f.apiKey,
        ...azureFields(f),
        // Only a saved provider lends its stored key; a new one's id names nothing yet.
        ...(f.editing ? { provider_id: f.editing } : {}),
      },
    });
    this.fetching = false;
    if (!result.ok) {
      this.errors = { ...this.errors, models: `Fetch failed: ${result.message}` };
      return;
    }
    this.fetched = [...result.data.models];
    if (this.fetched.length === 0) this.errors = { ...this.errors, models: "The upstream listed no models" };
    else this.errors = { ...this.errors, models: "" };
  };

  private readonly testDraft = async (): Promise<void> => {
    const f = this.form;
    if (!f) return;
    this.draftTest = "running";
    const model = splitList(f.models)[0];
    const result = await call("POST /providers/test-draft", {
      body: {
        api_type: f.apiType,
        base_url: f.baseUrl.trim(),
        api_key: f.apiKey,
        ...azureFields(f),
        ...(f.editing ? { provider_id: f.editing } : {}),
        ...(model ? { model } : {}),
      },
    });
    if (this.form === null) return;
    this.draftTest = result.ok
      ? { ok: result.data.ok, text: testText(result.data) }
      : { ok: false, text: `Failed · ${result.message}` };
  };

  private async test(id: string): Promise<void> {
    this.tests = { ...this.tests, [id]: "running" };
    const result = await call("POST /providers/:id/test", { params: { id } });
    if (!result.ok) {
      this.tests = { ...this.tests, [id]: { ok: false, text: `Failed · ${result.message}` } };
      return;
    }
    this.tests = { ...this.tests, [id]: { ok: result.data.ok, text: testText(result.data) } };
  }

  private async toggle(p: ProviderView, enabled: boolean): Promise<void> {
    const { id } = p;
    const result = await call(`POST /providers/:id/${enabled ? "enable" : "disable"}`, { params: { id } });
    if (result.ok) this.toast(`${enabled ? "Enabled" : "Disabled"} ${id}`);
    else this.toast(`Could not ${enabled ? "enable" : "disable"} ${id}: ${result.message}`, "error");
    await this.state.refresh();
  }

  private readonly deleteItem = async (): Promise<void> => {
    const p = this.deleting;
    if (!p) return;
    this.deleting = null;
    const result = await call("DELETE /providers/:id", { params: { id: p.id } });
    if (result.ok) this.toast(`Deleted ${p.id}`);
    else this.toast(`Could not delete: ${result.message}`, "error");
    await this.state.refresh();
  };
}

/** One line for a Test Connection outcome; with no model asked, the model-list message says what it found. */
function testText(d: ProbeResult): string {
  const detail = d.model ? ` · ${d.model}` : d.ok ? ` · ${d.message}` : "";
  return `${d.ok ? "Connected" : "Failed"}${d.status ? ` · HTTP ${d.status}` : ""} · ${
    formatLatency(d.latency_ms)
  }${detail}${!d.ok && d.message ? ` · ${d.message}` : ""}`;
}

/** The vendor picker: vendors by name first; the protocol below follows the choice. */
function vendorField(presets: readonly VendorPresetView[], pick: (p: VendorPresetView) => void) {
  if (presets.length === 0) return nothing;
  return html`
    <gw-field class="full" label="Vendor" hint="Fills the protocol, base URL and suggested models">
      <select name="vendor" @change=${(e: Event) => {
        const chosen = presets.find((p) => p.id === inputValue(e));
        if (chosen) pick(chosen);
      }}>
          <option value="">Other / custom…</option>
          ${presets.map((p) => html`<option value=${p.id}>${p.vendor}</option>`)}
        </select>
    </gw-field>
  `;
}

/** Subscription kinds sign in with Connect; pasting a credential stays possible, folded away. */
function signInNote(keyField: unknown) {
  return html`
    <div class="full stack sign-in-note" data-sign-in>
      <p
        class="muted">This provider signs in with your subscription: add it, then press <b>Connect</b> on its card.</p>
      <details><summary>Paste a credential instead</summary>${keyField}</details>
    </div>
  `;
}

customElements.define("gw-providers-screen", GwProvidersScreen);
