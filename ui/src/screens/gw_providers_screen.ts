import { css, html, nothing } from "lit";
import { API_BASE, send } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { inputValue, splitList } from "../lib/form.ts";
import { formatLatency } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { bool, type Json, list, num, obj, pick, str, strings } from "../lib/read.ts";
import { sharedStyles } from "../styles/shared.ts";
import { FormScreen } from "./form_screen.ts";

/** Provider kinds (spec's neutral labels) with a hint for the base URL field. */
const API_TYPES: readonly { value: string; label: string; url: string }[] = [
  { value: "chat_compat", label: "Chat-completions compatible", url: "https://api.example.com/v1" },
  { value: "messages_native", label: "Messages API (API key)", url: "https://api.anthropic.com" },
  {
    value: "generate_native",
    label: "Generate-content API",
    url: "https://generativelanguage.googleapis.com",
  },
  { value: "free_tier", label: "Free-tier hosted", url: "" },
  { value: "device_oauth_assistant", label: "Code assistant (device OAuth)", url: "" },
  { value: "responses_oauth", label: "Responses API (OAuth)", url: "" },
  { value: "cloud_assistant_oauth", label: "Cloud code assistant (OAuth)", url: "" },
  { value: "subscription_shell", label: "Subscription editor", url: "" },
  { value: "cli_oauth", label: "CLI assistant (OAuth)", url: "" },
  { value: "cli_oauth_alt", label: "CLI assistant (OAuth, alt)", url: "" },
  { value: "messages_oauth", label: "Messages API (subscription OAuth)", url: "" },
];

interface ProviderForm {
  editing: string | null;
  id: string;
  prefix: string;
  apiType: string;
  baseUrl: string;
  apiKey: string;
  models: string;
}

const EMPTY: ProviderForm = {
  editing: null,
  id: "",
  prefix: "",
  apiType: "chat_compat",
  baseUrl: "",
  apiKey: "",
  models: "",
};
const FIELDS = ["id", "prefix", "api_type", "base_url", "api_key", "models"] as const;

/** Providers: create / edit / test / enable / disable / delete, with a Fetch Models helper. */
export class GwProvidersScreen extends FormScreen<ProviderForm> {
  static override properties = {
    fetching: { state: true },
    fetched: { state: true },
    tests: { state: true },
    deleting: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .pcard {
        display: flex;
        flex-direction: column;
      }
      .pcard .card-body {
        flex: 1;
        display: flex;
        flex-direction: column;
        gap: 10px;
      }
      .meta {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 4px 12px;
        font-size: var(--gw-text-sm);
      }
      .meta dt {
        color: var(--gw-text-muted);
      }
      .meta dd {
        margin: 0;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .title {
        display: flex;
        align-items: center;
        gap: 10px;
        min-width: 0;
      }
      .title h3 {
        font-family: var(--gw-mono);
        font-size: var(--gw-text-md);
        overflow-wrap: anywhere;
      }
      .actions {
        display: flex;
        gap: 6px;
        flex-wrap: wrap;
        align-items: center;
      }
      .result {
        font-size: var(--gw-text-sm);
        padding: 8px 10px;
        border-radius: var(--gw-radius-sm);
      }
      .result.ok {
        background: var(--gw-ok-soft);
        color: var(--gw-ok);
      }
      .result.bad {
        background: var(--gw-danger-soft);
        color: var(--gw-danger);
      }
      .disabled {
        opacity: 0.72;
      }
      .fetched {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        max-height: 160px;
        overflow: auto;
      }
      .fetched button {
        font-family: var(--gw-mono);
        font-weight: 450;
      }
    `,
  ];
  declare fetching: boolean;
  declare fetched: string[];
  declare tests: Record<string, { ok: boolean; text: string } | "running">;
  declare deleting: Json | null;
  private state = new StateController<Json>(this, "providers", 15_000);

  constructor() {
    super();
    this.fetching = false;
    this.fetched = [];
    this.tests = {};
    this.deleting = null;
  }

  protected override willUpdate(): void {
    if (this.takeAction() === "create") this.openForm({ ...EMPTY });
  }

  override render() {
    return html`
      <gw-page-header heading="Providers"
        description="Upstream connections. Providers that share a prefix are pooled for fallback.">
        <button class="primary" @click=${() => this.openForm({ ...EMPTY })}>${icon(
          "plus",
        )}Add provider</button>
      </gw-page-header>
            ${this.frame(this.state, (d) => this.cards(providersOf(d)))}
            ${this.formDialog()} ${this.deleteDialog()}
    `;
  }

  private cards(providers: Json[]) {
    if (providers.length === 0) {
      return html`
        <div class="card">
          <gw-empty icon="providers" heading="No providers yet"
            text="Add an upstream (any chat-completions compatible API, a messages API or a generate-content API) so the gateway has somewhere to send requests.">
            <button class="primary" @click=${() => this.openForm({ ...EMPTY })}>${icon(
              "plus",
            )}Add your first provider</button>
          </gw-empty>
        </div>
      `;
    }
    return html`<div class="grid-cards">${providers.map((p) => this.card(p))}</div>`;
  }

  private card(p: Json) {
    const id = str(p.id);
    const enabled = pick(p, "enabled", "is_active") === undefined
      ? true
      : bool(pick(p, "enabled", "is_active"));
    const models = strings(pick(p, "models", "models_list"));
    const test = this.tests[id];
    const cooldown = num(obj(p.cooldown).remaining_s);
    return html`
      <div class="card pcard ${enabled ? "" : "disabled"}" data-provider=${id}>
        <div class="card-head">
          <div class="title">
            <h3>${id}</h3>
          </div>
          <div class="row">
                ${p.callable === false
                  ? html`<span class="badge warn" title="This build cannot call this provider type">not callable</span>`
                  : nothing}
                ${cooldown > 0
                  ? html`<span class="badge warn">cooling <gw-countdown .until=${
                    Date.now() + cooldown * 1000
                  }></gw-countdown></span>`
                  : nothing}
                ${enabled
                  ? html`<span class="badge ok"><span class="dot"></span>enabled</span>`
                  : html`<span class="badge">disabled</span>`}
              </div>
        </div>
        <div class="card-body">
              <dl class="meta">
                <dt>Prefix</dt><dd><span class="chip">${str(p.prefix)}</span></dd>
                <dt>Type</dt><dd>${typeLabel(str(p.api_type))}</dd>
                <dt>Base URL</dt><dd class="mono small">${str(p.base_url) ||
                  html`<span class="faint">default</span>`}</dd>
                <dt>Key</dt><dd class="mono small">${str(
                  pick(p, "api_key_masked", "key_masked", "api_key_hint"),
                ) ||
                  (bool(pick(p, "has_api_key", "api_key_set"))
                    ? "set"
                    : html`<span class="faint">–</span>`)}</dd>
                <dt>Models</dt><dd>${models.length === 0
                  ? html`<span class="faint small">none listed</span>`
                  : html`<div class="chips">${
                    models.slice(0, 6).map((m) => html`<span class="chip">${m}</span>`)
                  }${
                    models.length > 6
                      ? html`<span class="faint small">+${models.length - 6} more</span>`
                      : nothing
                  }</div>`}</dd>
              </dl>
              ${test === "running"
                ? html`<div class="result muted">Testing connection…</div>`
                : test
                ? html`<div class="result ${test.ok ? "ok" : "bad"}" role="status">${test.text}</div>`
                : nothing}
            </div>
        <div class="card-foot actions">
          <button class="sm" @click=${() => this.test(id)} ?disabled=${test === "running"}>${icon(
            "play",
            14,
          )}Test</button>
          <button class="sm" @click=${() => this.edit(p)}>${icon("edit", 14)}Edit</button>
          <button class="sm" @click=${() => this.toggle(p, !enabled)}>${enabled
            ? "Disable"
            : "Enable"}</button>
          <span class="spacer"></span>
          <button class="sm ghost danger" aria-label="Delete ${id}" @click=${() => (this.deleting =
            p)}>${icon("trash", 14)}</button>
        </div>
      </div>
    `;
  }

  private formDialog() {
    const f = this.form;
    const type = API_TYPES.find((t) => t.value === f?.apiType);
    return html`<gw-dialog wide .open=${f !== null} heading=${
      f?.editing ? `Edit ${f.editing}` : "Add provider"
    } @gw-close=${() => (this.form = null)}>
      ${
      f
        ? html`<form id="provider-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formErrorBanner()}
          <div class="form-grid">
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
            <gw-field label="Type" required .error=${this.fieldError("api_type")}>
              <select name="api_type" @change=${(e: Event) => this.patch({ apiType: inputValue(e) })}>
                ${
          API_TYPES.map((t) =>
            html`<option value=${t.value} ?selected=${t.value === f.apiType}>${t.label}</option>`
          )
        }
              </select>
            </gw-field>
            <gw-field label="Base URL" .error=${this.fieldError("base_url")} hint=${
          type?.url ? `e.g. ${type.url}` : "Leave empty for the provider's default"
        }>
              <input name="base_url" type="url" .value=${f.baseUrl} placeholder=${
          type?.url ?? ""
        } aria-invalid=${this.invalid("base_url")}
                @input=${(e: Event) => this.patch({ baseUrl: inputValue(e) })}>
            </gw-field>
            <gw-field class="full" label="API key" .error=${this.fieldError("api_key")}
              hint=${
          f.editing
            ? "Leave empty to keep the stored key."
            : "Stored in the gateway's database; never shown again."
        }>
              <input name="api_key" type="password" autocomplete="off" .value=${f.apiKey} aria-invalid=${
          this.invalid("api_key")
        }
                @input=${(e: Event) => this.patch({ apiKey: inputValue(e) })}>
            </gw-field>
            <gw-field class="full" label="Models" .error=${
          this.fieldError("models")
        } hint="Comma or newline separated model names this provider serves.">
              <textarea name="models" .value=${f.models} aria-invalid=${this.invalid("models")}
                @input=${(e: Event) => this.patch({ models: inputValue(e) })}></textarea>
            </gw-field>
          </div>
          <div class="stack-sm">
            <div class="row"><button type="button" class="sm" @click=${this.fetchModels} ?disabled=${this.fetching}>${
          icon("download", 14)
        }${this.fetching ? "Fetching…" : "Fetch models from upstream"}</button>
              ${
          this.fetched.length > 0
            ? html`<button type="button" class="sm ghost" @click=${this.addAllFetched}>Add all ${this.fetched.length}</button>`
            : nothing
        }</div>
            ${
          this.fetched.length > 0
            ? html`<div class="fetched">${
              this.fetched.map((m) =>
                html`<button type="button" class="sm" @click=${() => this.addModel(m)}>${
                  icon("plus", 12)
                }${m}</button>`
              )
            }</div>`
            : nothing
        }
          </div>
        </form>`
        : nothing
    }
      ${this.formFooter("provider-form", f?.editing ? "Save changes" : "Add provider")}
    </gw-dialog>`;
  }

  private deleteDialog() {
    const p = this.deleting;
    return html`
      <gw-dialog .open=${p !== null} heading="Delete provider?" @gw-close=${() => (this.deleting = null)}>
        <p>Delete <b class="mono">${str(p?.id)}</b>? Requests for <code>${str(
          p?.prefix,
        )}/…</code> will use other connections with the
              same prefix, if any. To pause it instead, disable it.</p>
        <button slot="footer" @click=${() => (this.deleting = null)}>Cancel</button>
        <button slot="footer" class="danger-solid" @click=${this.deleteItem}>Delete provider</button>
      </gw-dialog>
    `;
  }

  private openForm(form: ProviderForm): void {
    this.showForm(form);
    this.fetched = [];
  }

  private edit(p: Json): void {
    this.openForm({
      editing: str(p.id),
      id: str(p.id),
      prefix: str(p.prefix),
      apiType: str(p.api_type, "chat_compat"),
      baseUrl: str(p.base_url),
      apiKey: "",
      models: strings(pick(p, "models", "models_list")).join("\n"),
    });
  }

  private addModel(model: string): void {
    if (!this.form) return;
    const current = splitList(this.form.models);
    if (!current.includes(model)) this.patch({ models: [...current, model].join("\n") });
  }

  private readonly addAllFetched = (): void => {
    if (!this.form) return;
    const current = splitList(this.form.models);
    this.patch({ models: [...current, ...this.fetched.filter((m) => !current.includes(m))].join("\n") });
  };

  private validate(f: ProviderForm): Record<string, string> {
    const errors: Record<string, string> = {};
    if (!f.editing && !/^[A-Za-z0-9._:-]+$/.test(f.id.trim())) errors.id = "Use letters, digits and _ . : -";
    if (!/^[A-Za-z0-9._-]+$/.test(f.prefix.trim())) {
      errors.prefix = "Use letters, digits and _ . - (no slash)";
    }
    const spaced = splitList(f.models).find((m) => /\s/.test(m));
    if (spaced) errors.models = `"${spaced}" contains a space`;
    if (f.baseUrl.trim() !== "" && !/^https?:\/\/\S+$/.test(f.baseUrl.trim())) {
      errors.base_url = "Enter an http:// or https:// URL";
    }
    return errors;
  }

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const body: Record<string, unknown> = {
      id: f.id.trim(),
      prefix: f.prefix.trim(),
      api_type: f.apiType,
      base_url: f.baseUrl.trim(),
      models: splitList(f.models),
    };
    if (f.apiKey !== "" || !f.editing) body.api_key = f.apiKey;
    const result = await this.saveForm(
      this.validate(f),
      FIELDS,
      () =>
        f.editing
          ? send("PUT", `${API_BASE}/providers/${encodeURIComponent(f.editing)}`, body)
          : send("POST", `${API_BASE}/providers`, body),
    );
    if (!result) return;
    this.toast(f.editing ? `Saved ${body.id}` : `Added provider ${body.id}`);
    await this.state.refresh();
  };

  private readonly fetchModels = async (): Promise<void> => {
    const f = this.form;
    if (!f) return;
    this.fetching = true;
    const result = await send<Json>("POST", `${API_BASE}/providers/fetch-models`, {
      api_type: f.apiType,
      base_url: f.baseUrl.trim(),
      api_key: f.apiKey,
      provider_id: f.editing ?? (f.id.trim() || undefined),
    });
    this.fetching = false;
    if (!result.ok) {
      this.errors = { ...this.errors, models: `Fetch failed: ${result.message}` };
      return;
    }
    const data = obj(result.data);
    const raw = Array.isArray(result.data) ? result.data : pick(data, "models", "data", "ids") ?? [];
    this.fetched = (Array.isArray(raw) ? raw : []).map((m) =>
      typeof m === "string" ? m : str(pick(obj(m), "id", "name"))
    ).filter(Boolean);
    if (this.fetched.length === 0) this.errors = { ...this.errors, models: "The upstream listed no models" };
    else this.errors = { ...this.errors, models: "" };
  };

  private async test(id: string): Promise<void> {
    this.tests = { ...this.tests, [id]: "running" };
    const result = await send<Json>("POST", `${API_BASE}/providers/${encodeURIComponent(id)}/test`);
    const d = obj(result.ok ? result.data : {});
    const ok = result.ok && bool(pick(d, "ok"));
    const latency = pick(d, "latency_ms", "latency", "duration_ms");
    const status = pick(d, "status", "status_code");
    const text = result.ok
      ? `${ok ? "Connected" : "Failed"}${status !== undefined ? ` · HTTP ${str(status)}` : ""}${
        latency !== undefined ? ` · ${formatLatency(num(latency))}` : ""
      }${d.model ? ` · ${str(d.model)}` : ""}${
        !ok && pick(d, "message", "error") ? ` · ${str(pick(d, "message", "error"))}` : ""
      }`
      : `Failed · ${result.message}`;
    this.tests = { ...this.tests, [id]: { ok, text } };
  }

  private async toggle(p: Json, enabled: boolean): Promise<void> {
    const id = str(p.id);
    const result = await send(
      "POST",
      `${API_BASE}/providers/${encodeURIComponent(id)}/${enabled ? "enable" : "disable"}`,
    );
    if (result.ok) this.toast(`${enabled ? "Enabled" : "Disabled"} ${id}`);
    else this.toast(`Could not ${enabled ? "enable" : "disable"} ${id}: ${result.message}`, "error");
    await this.state.refresh();
  }

  private readonly deleteItem = async (): Promise<void> => {
    const p = this.deleting;
    if (!p) return;
    this.deleting = null;
    const result = await send("DELETE", `${API_BASE}/providers/${encodeURIComponent(str(p.id))}`);
    if (result.ok) this.toast(`Deleted ${str(p.id)}`);
    else this.toast(`Could not delete: ${result.message}`, "error");
    await this.state.refresh();
  };
}

function providersOf(d: Json): Json[] {
  return Array.isArray(d) ? list(d) : list(pick(obj(d), "providers", "items"));
}

function typeLabel(apiType: string): string {
  return API_TYPES.find((t) => t.value === apiType)?.label ?? apiType;
}

customElements.define("gw-providers-screen", GwProvidersScreen);
