import { css, html, nothing } from "lit";
import type { CreatedKey, KeySaved, KeysSection, KeyView } from "../../../src/features/keys/contract.ts";
import { call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { formatAgo, formatCost, formatDateTime } from "../lib/format.ts";
import { inputValue as value, splitList } from "../lib/form.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";
import { FormScreen } from "./form_screen.ts";

interface KeyForm {
  id: string | null;
  name: string;
  canLogin: boolean;
  models: string;
  budget: string;
  /** Group id, or "" for none. */
  group: string;
  rpm: string;
  tpm: string;
  parallel: string;
  /** yyyy-mm-dd, or "" for never. */
  expires: string;
}

/** What saving a key answers: the key, plus its plaintext once when it was just created. */
type Saved = KeySaved | CreatedKey;

const EMPTY: KeyForm = {
  id: null,
  name: "",
  canLogin: true,
  models: "",
  budget: "",
  group: "",
  rpm: "",
  tpm: "",
  parallel: "",
  expires: "",
};

/** A limit field's value for the API: null when empty (inherit). */
function limitValue(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

/** API Keys: list, create (plaintext shown once with a copy button), edit scopes, revoke. */
export class GwKeysScreen extends FormScreen<KeyForm> {
  static override properties = {
    created: { state: true },
    revoking: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .secret {
        display: flex;
        gap: 8px;
        align-items: center;
        padding: 12px;
        border-radius: var(--gw-radius-sm);
        background: var(--gw-surface-2);
        border: 1px dashed var(--gw-border-strong);
      }
      .secret code {
        flex: 1;
        border: none;
        background: none;
        word-break: break-all;
        font-size: var(--gw-text-sm);
      }
    `,
  ];
  declare created: { key: string; name: string } | null;
  declare revoking: KeyView | null;
  private state = new StateController(this, "keys");
  /** The groups a key can join (from the last state read). */
  private groups: KeysSection["groups"] = [];

  constructor() {
    super();
    this.created = null;
    this.revoking = null;
  }

  protected override willUpdate(): void {
    if (this.takeAction() === "create") this.showForm({ ...EMPTY });
  }

  override render() {
    return html`
      <gw-page-header heading="API Keys"
        description="Keys clients use to call the gateway and sign in to this dashboard.">
        <button class="primary" @click=${() => this.showForm({ ...EMPTY })}>${icon("plus")}Create key</button>
      </gw-page-header>
            ${this.frame(this.state, (d) => {
              this.groups = d.groups;
              return html`${this.table(d.keys, d.static_keys)}
                <gw-key-groups .groups=${d.groups} @gw-changed=${() =>
                this.state.refresh()}></gw-key-groups>`;
            })}
            ${this.formDialog()} ${this.createdDialog()} ${this.revokeDialog()}
    `;
  }

  private table(keys: readonly KeyView[], staticKeys: KeysSection["static_keys"]) {
    if (keys.length === 0) {
      return html`
        <div class="card">
          <gw-empty icon="keys" heading="No API keys yet"
            text="Create a key for each client or teammate. Keys can be limited to some models and given a daily budget.">
            <button class="primary" @click=${() => this.showForm({ ...EMPTY })}>${icon(
              "plus",
            )}Create your first key</button>
          </gw-empty>
        </div>${this.staticNote(staticKeys)}
      `;
    }
    return html`
      <div class="card">
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Status</th>
                <th>Role</th>
                <th>Group</th>
                <th>Models</th>
                <th>Limits</th>
                <th class="right">Spend (period)</th>
                <th>Expires</th>
                <th>Last used</th>
                <th></th>
              </tr>
            </thead>
            <tbody>${keys.map((k) => {
              const active = k.status === "active";
              const models = k.allowed_models;
              return html`
                <tr>
                  <td><b>${k.name}</b></td>
                  <td class="mono small nowrap">${k.prefix}…</td>
                  <td>${active
                    ? html`<span class="badge ok"><span class="dot"></span>active</span>`
                    : html`<span class="badge">revoked</span>`}</td>
                  <td>${k.can_login
                    ? html`<span class="badge info">${k.role}</span>`
                    : html`<span class="faint small">API only</span>`}</td>
                  <td class="small">${k.group ?? html`<span class="faint">–</span>`}</td>
                  <td>${models.length === 0
                    ? html`<span class="muted small">all models</span>`
                    : html`<div class="chips">${
                      models.slice(0, 3).map((m) => html`<span class="chip">${m}</span>`)
                    }${
                      models.length > 3
                        ? html`<span class="faint small">+${models.length - 3}</span>`
                        : nothing
                    }</div>`}</td>
                  <td class="small nowrap" data-testid="limits">${limitsText(k)}</td>
                  <td class="right num nowrap"
                    data-testid="period-spend">${formatCost(
                      k.period_spend.spent,
                    )}${k.period_spend.limit === null
                      ? ""
                      : ` / ${formatCost(k.period_spend.limit)}`} <span class="faint small">${k.period_spend
                      .period}</span></td>
                  <td class="small nowrap">${k.expires_at === null
                    ? html`<span class="faint">never</span>`
                    : html`<span class=${k.expired ? "badge danger" : ""}>${
                      formatDateTime(k.expires_at)
                    }</span>`}</td>
                  <td class="small muted nowrap">${k.last_used_at === null
                    ? "never"
                    : formatAgo(k.last_used_at)}</td>
                  <td class="right nowrap">${active
                    ? html`
                      <button class="sm ghost" aria-label="Edit ${k.name}" @click=${() =>
                        this.edit(k)}>${icon("edit", 14)}Edit</button>
                      <button class="sm ghost" aria-label="Rotate ${k.name}" @click=${() =>
                        this.rotate(k)}>Rotate</button>
                      <button class="sm ghost danger" aria-label="Revoke ${k
                        .name}" @click=${() => (this.revoking = k)}>Revoke</button>
                    `
                    : nothing}</td>
                </tr>
              `;
            })}</tbody>
          </table>
        </div>
      </div>${this.staticNote(staticKeys)}
    `;
  }

  private staticNote(staticKeys: KeysSection["static_keys"]) {
    if (staticKeys.length === 0) return nothing;
    return html`<p class="small muted" style="margin-top:12px">Also accepted: ${staticKeys.length} static key(s) from the YAML file
      (${staticKeys.map((k) => k.label).join(", ")}), with full access.</p>`;
  }

  private formDialog() {
    const f = this.form;
    return html`<gw-dialog .open=${f !== null} heading=${
      f?.id ? "Edit key" : "Create API key"
    } @gw-close=${() => (this.form = null)}>
      ${
      f
        ? html`<form id="key-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formErrorBanner()}
          <gw-field label="Name" required .error=${
          this.fieldError("name")
        } hint="Who or what uses this key, e.g. laptop-claude-code">
            <input name="name" .value=${f.name} aria-invalid=${this.invalid("name")} maxlength="100"
              @input=${(e: Event) => this.patch({ name: value(e) })}>
          </gw-field>
          <gw-field label="Allowed models" .error=${this.fieldError("allowed_models")}
            hint="One per line or comma-separated: prefix/model, prefix/* or a combo name. Empty allows every model.">
            <textarea name="allowed_models" .value=${f.models} aria-invalid=${this.invalid("allowed_models")}
              placeholder="openai/*&#10;anthropic/claude-sonnet-4" @input=${(e: Event) =>
          this.patch({ models: value(e) })}></textarea>
          </gw-field>
          <gw-field label="Daily budget (USD)" .error=${
          this.fieldError("daily_budget")
        } hint="Optional. Requests get 429 once today's spend reaches it.">
            <input name="daily_budget" type="number" min="0" step="0.01" inputmode="decimal" .value=${f.budget}
              aria-invalid=${this.invalid("daily_budget")} @input=${(e: Event) =>
          this.patch({ budget: value(e) })}>
          </gw-field>
          <div class="form-grid">
            <gw-field label="Group" .error=${
          this.fieldError("group_id")
        } hint="Its limits and models bound the key">
              <select name="group_id" @change=${(e: Event) =>
          this.patch({ group: (e.target as HTMLSelectElement).value })}>
                <option value="" ?selected=${f.group === ""}>No group</option>
                ${
          this.groups.map((g) =>
            html`<option value=${g.id} ?selected=${f.group === String(g.id)}>${g.name}</option>`
          )
        }
              </select></gw-field>
            <gw-field label="Expires" .error=${this.fieldError("expires_at")} hint="Empty: never">
              <input name="expires_at" type="date" .value=${f.expires} @input=${(e: Event) =>
          this.patch({ expires: value(e) })}></gw-field>
          </div>
          <div class="form-grid">
            <gw-field label="Requests / min" .error=${this.fieldError("rpm")} hint="Empty: inherit">
              <input name="rpm" type="number" min="1" step="1" .value=${f.rpm} aria-invalid=${
          this.invalid("rpm")
        }
                @input=${(e: Event) => this.patch({ rpm: value(e) })}></gw-field>
            <gw-field label="Tokens / min" .error=${this.fieldError("tpm")} hint="Empty: inherit">
              <input name="tpm" type="number" min="1" step="1" .value=${f.tpm} aria-invalid=${
          this.invalid("tpm")
        }
                @input=${(e: Event) => this.patch({ tpm: value(e) })}></gw-field>
            <gw-field label="At once" .error=${this.fieldError("max_parallel")} hint="Empty: inherit">
              <input name="max_parallel" type="number" min="1" step="1" .value=${f.parallel}
                aria-invalid=${this.invalid("max_parallel")} @input=${(e: Event) =>
          this.patch({ parallel: value(e) })}></gw-field>
          </div>
          <label class="check"><input type="checkbox" class="switch" name="can_login" .checked=${f.canLogin}
            @change=${(e: Event) =>
          this.patch({ canLogin: (e.target as HTMLInputElement).checked })}>Allow dashboard sign-in</label>
        </form>`
        : nothing
    }
      ${this.formFooter("key-form", f?.id ? "Save changes" : "Create key")}
    </gw-dialog>`;
  }

  private createdDialog() {
    const c = this.created;
    return html`<gw-dialog .open=${c !== null} heading="Key created" @gw-close=${() => (this.created = null)}>
      ${
      c
        ? html`
          <div class="stack">
            <p>Copy the key for <b>${c
              .name}</b> now. It is stored only as a hash and will not be shown again.</p>
            <div
              class="secret"><code data-testid="new-key">${c.key}</code><gw-copy-button .text=${c
                .key}></gw-copy-button></div>
            <div class="warn-box">Treat it like a password: anyone with this key can use your providers.</div>
          </div>
        `
        : nothing
    }
      <button slot="footer" class="primary" @click=${() => (this.created = null)}>I copied it</button>
    </gw-dialog>`;
  }

  private revokeDialog() {
    const k = this.revoking;
    return html`
      <gw-dialog .open=${k !== null} heading="Revoke key?" @gw-close=${() => (this.revoking = null)}>
        <p>Clients using <b>${k?.name}</b> will get 401 from now on. This cannot be undone.</p>
        <button slot="footer" @click=${() => (this.revoking = null)}>Cancel</button>
        <button slot="footer" class="danger-solid" @click=${this.revoke}>Revoke key</button>
      </gw-dialog>
    `;
  }

  private edit(k: KeyView): void {
    this.showForm({
      id: String(k.id),
      name: k.name,
      canLogin: k.can_login,
      models: k.allowed_models.join("\n"),
      budget: k.daily_budget === null ? "" : String(k.daily_budget),
      group: k.group_id === null ? "" : String(k.group_id),
      rpm: k.rpm === null ? "" : String(k.rpm),
      tpm: k.tpm === null ? "" : String(k.tpm),
      parallel: k.max_parallel === null ? "" : String(k.max_parallel),
      expires: k.expires_at === null ? "" : new Date(k.expires_at).toISOString().slice(0, 10),
    });
  }

  private async rotate(k: KeyView): Promise<void> {
    const result = await call("POST /keys/:id/rotate", { params: { id: k.id }, body: {} });
    if (!result.ok) {
      this.toast(`Could not rotate: ${result.message}`, "error");
      return;
    }
    this.created = { key: result.data.plaintext, name: k.name };
    await this.state.refresh();
  }

  private validate(f: KeyForm): Record<string, string> {
    const errors: Record<string, string> = {};
    if (f.name.trim() === "") errors.name = "Enter a name";
    else if (f.name.trim().length > 100) errors.name = "Use at most 100 characters";
    if (f.budget.trim() !== "" && !(Number(f.budget) > 0)) {
      errors.daily_budget = "Enter an amount above 0, or leave empty";
    }
    for (const [field, text] of [["rpm", f.rpm], ["tpm", f.tpm], ["max_parallel", f.parallel]] as const) {
      const n = Number(text);
      if (text.trim() !== "" && !(Number.isInteger(n) && n >= 1)) {
        errors[field] = "Enter a whole number of at least 1";
      }
    }
    const bad = splitList(f.models).find((m) => /\s/.test(m));
    if (bad) errors.allowed_models = `"${bad}" contains spaces`;
    return errors;
  }

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const body = {
      name: f.name.trim(),
      can_login: f.canLogin,
      allowed_models: splitList(f.models),
      daily_budget: f.budget.trim() === "" ? null : Number(f.budget),
      group_id: f.group === "" ? null : Number(f.group),
      rpm: limitValue(f.rpm),
      tpm: limitValue(f.tpm),
      max_parallel: limitValue(f.parallel),
      // The end of the chosen day in the browser's zone.
      expires_at: f.expires === "" ? null : new Date(`${f.expires}T23:59:59`).getTime(),
    };
    const result = await this.saveForm<Saved>(
      this.validate(f),
      [
        "name",
        "allowed_models",
        "daily_budget",
        "can_login",
        "group_id",
        "rpm",
        "tpm",
        "max_parallel",
        "expires_at",
      ],
      () => f.id ? call("POST /keys/:id", { params: { id: f.id }, body }) : call("POST /v2/keys", { body }),
    );
    if (!result) return;
    if (!f.id && "plaintext" in result.data) {
      this.created = { key: result.data.plaintext, name: body.name };
    } else this.toast(`Saved ${body.name}`);
    await this.state.refresh();
  };

  private readonly revoke = async (): Promise<void> => {
    const k = this.revoking;
    if (!k) return;
    this.revoking = null;
    const result = await call("DELETE /keys/:id", { params: { id: k.id } });
    if (result.ok) this.toast(`Revoked ${k.name}`);
    else this.toast(`Could not revoke: ${result.message}`, "error");
    await this.state.refresh();
  };
}

/** "60 rpm · 10k tpm · 2 at once" from the limits in force; "(group)" when inherited. */
function limitsText(k: KeyView) {
  const parts: string[] = [];
  const e = k.effective;
  if (e.rpm !== null) parts.push(`${e.rpm} rpm${k.rpm === null ? "*" : ""}`);
  if (e.tpm !== null) parts.push(`${e.tpm} tpm${k.tpm === null ? "*" : ""}`);
  if (e.max_parallel !== null) parts.push(`${e.max_parallel} at once${k.max_parallel === null ? "*" : ""}`);
  return parts.length === 0 ? html`<span class="faint">none</span>` : parts.join(" · ");
}

customElements.define("gw-keys-screen", GwKeysScreen);
