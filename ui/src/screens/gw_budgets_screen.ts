import { html, nothing } from "lit";
import { API_BASE, send } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { formatCost } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { type Json, list, num, obj, str } from "../lib/read.ts";
import { ScreenBase } from "./screen_base.ts";

interface BudgetForm {
  scope: string;
  limit: string;
  warn: string;
  editing: boolean;
}

/** Budgets: a global and per-key daily spend limit with warning threshold; over the limit means 429. */
export class GwBudgetsScreen extends ScreenBase {
  static override properties = {
    form: { state: true },
    errors: { state: true },
    formError: { state: true },
    saving: { state: true },
  };
  declare form: BudgetForm | null;
  declare errors: Record<string, string>;
  declare formError: string;
  declare saving: boolean;
  private state = new StateController<Json>(this, "budgets", 15_000);

  constructor() {
    super();
    this.form = null;
    this.errors = {};
    this.formError = "";
    this.saving = false;
  }

  protected override willUpdate(): void {
    if (this.takeAction() === "create") this.openForm(null);
  }

  override render() {
    const d = obj(this.state.data);
    return html`
      <gw-page-header heading="Budgets"
        description="Daily spend limits. A request over its limit gets 429 until the day resets.">
        <button class="primary" @click=${() => this.openForm(null)}>${icon("plus")}Set budget</button>
      </gw-page-header>
            ${this.frame(this.state, () => this.table(list(d.budgets), str(d.timezone)))}
            ${this.formDialog(list(d.keys))}
    `;
  }

  private table(budgets: Json[], timezone: string) {
    if (budgets.length === 0) {
      return html`
        <div class="card">
          <gw-empty icon="budgets" heading="No budgets"
            text="Spending is unlimited. Set a global daily limit, or one per API key, to cap what the gateway may spend.">
                <button class="primary" @click=${() => this.openForm(null)}>${icon(
                  "plus",
                )}Set a daily limit</button></gw-empty>
        </div>
      `;
    }
    return html`<div class="card"><div class="table-wrap"><table>
      <thead><tr><th>Scope</th><th class="right">Daily limit</th><th class="right">Warn at</th><th style="min-width:220px">Spent today</th><th>Status</th><th></th></tr></thead>
      <tbody>${
      budgets.map((b) => {
        const status = str(b.status, "ok");
        return html`
          <tr>
            <td><b>${str(b.scope_label) || str(b.scope)}</b></td>
            <td class="right num">${formatCost(b.daily_limit)}</td>
            <td class="right num">${num(b.warn_pct)}%</td>
            <td>
              <gw-meter .spent=${num(b.spent_today)} .limit=${num(b.daily_limit)} .warnPct=${num(
                b.warn_pct,
                80,
              )} .status=${status}></gw-meter>
            </td>
            <td><span class="badge ${status === "ok"
              ? "ok"
              : status === "warning"
              ? "warn"
              : "danger"}">${status}</span></td>
            <td class="right nowrap"><button class="sm ghost" @click=${() => this.openForm(b)}>${icon(
              "edit",
              14,
            )}Edit</button>
                      <button class="sm ghost danger" aria-label="Delete budget" @click=${() =>
                        this.deleteItem(b)}>${icon("trash", 14)}</button></td>
          </tr>
        `;
      })
    }</tbody></table></div>
      ${
      timezone
        ? html`<div class="card-foot small muted">Days reset at midnight in ${timezone}.</div>`
        : nothing
    }</div>`;
  }

  private formDialog(keys: Json[]) {
    const f = this.form;
    return html`<gw-dialog .open=${f !== null} heading=${
      f?.editing ? "Edit budget" : "Set budget"
    } @gw-close=${() => (this.form = null)}>
      ${
      f
        ? html`<form id="budget-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formError ? html`<div class="form-error" role="alert">${this.formError}</div>` : nothing}
          <gw-field label="Applies to" .error=${this.errors.scope ?? ""}>
            <select name="scope" ?disabled=${f.editing} @change=${(e: Event) =>
          this.patch({ scope: (e.target as HTMLSelectElement).value })}>
              <option value="global" ?selected=${f.scope === "global"}>Global (all traffic)</option>
              ${
          keys.map((k) =>
            html`<option value=${str(k.id)} ?selected=${f.scope === str(k.id)}>Key: ${str(k.name)}</option>`
          )
        }
            </select></gw-field>
          <div class="form-grid">
            <gw-field label="Daily limit (USD)" required .error=${this.errors.daily_limit ?? ""}>
              <input name="daily_limit" type="number" min="0" step="0.01" inputmode="decimal" .value=${f.limit}
                aria-invalid=${this.errors.daily_limit ? "true" : "false"} @input=${(e: Event) =>
          this.patch({ limit: value(e) })}></gw-field>
            <gw-field label="Warn at (%)" .error=${this.errors.warn_pct ?? ""} hint="1 to 100">
              <input name="warn_pct" type="number" min="1" max="100" step="1" .value=${f.warn}
                aria-invalid=${this.errors.warn_pct ? "true" : "false"} @input=${(e: Event) =>
          this.patch({ warn: value(e) })}></gw-field>
          </div>
        </form>`
        : nothing
    }
      <button slot="footer" @click=${() => (this.form = null)}>Cancel</button>
      <button slot="footer" class="primary" type="submit" form="budget-form" ?disabled=${this.saving}>${
      this.saving ? "Saving…" : "Save budget"
    }</button>
    </gw-dialog>`;
  }

  private openForm(b: Json | null): void {
    this.form = b
      ? {
        scope: b.key_id === null || b.key_id === undefined ? "global" : str(b.key_id),
        limit: str(b.daily_limit),
        warn: str(b.warn_pct, "80"),
        editing: true,
      }
      : { scope: "global", limit: "", warn: "80", editing: false };
    this.errors = {};
    this.formError = "";
  }

  private patch(change: Partial<BudgetForm>): void {
    if (this.form) this.form = { ...this.form, ...change };
  }

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const errors: Record<string, string> = {};
    if (!(Number(f.limit) > 0)) errors.daily_limit = "Enter an amount above 0";
    const warn = Number(f.warn);
    if (f.warn.trim() !== "" && !(Number.isInteger(warn) && warn >= 1 && warn <= 100)) {
      errors.warn_pct = "Enter a whole number from 1 to 100";
    }
    this.errors = errors;
    this.formError = "";
    if (Object.keys(errors).length > 0) return;
    this.saving = true;
    const result = await send("POST", `${API_BASE}/budgets`, {
      scope: f.scope === "global" ? "global" : Number(f.scope),
      daily_limit: Number(f.limit),
      warn_pct: f.warn.trim() === "" ? 80 : warn,
    });
    this.saving = false;
    if (!result.ok) {
      const { fields, form } = this.fieldErrors(result, ["scope", "daily_limit", "warn_pct"]);
      this.errors = fields;
      this.formError = form;
      return;
    }
    this.form = null;
    this.toast("Budget saved");
    await this.state.refresh();
  };

  private async deleteItem(b: Json): Promise<void> {
    const result = await send("DELETE", `${API_BASE}/budgets/${encodeURIComponent(str(b.id))}`);
    if (result.ok) this.toast(`Removed the ${str(b.scope_label) || "budget"} limit`);
    else this.toast(result.message, "error");
    await this.state.refresh();
  }
}

function value(event: Event): string {
  return (event.target as HTMLInputElement).value;
}

customElements.define("gw-budgets-screen", GwBudgetsScreen);
