import { html, nothing } from "lit";
import type { BudgetsSection, BudgetView } from "../../../src/features/budgets/contract.ts";
import { call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { inputValue } from "../lib/form.ts";
import { formatCost } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { FormScreen } from "./form_screen.ts";

interface BudgetForm {
  scope: string;
  limit: string;
  warn: string;
  editing: boolean;
}

/** Budgets: a global and per-key daily spend limit with warning threshold; over the limit means 429. */
export class GwBudgetsScreen extends FormScreen<BudgetForm> {
  private state = new StateController(this, "budgets", 15_000);

  protected override willUpdate(): void {
    if (this.takeAction() === "create") this.openForm(null);
  }

  override render() {
    const d = this.state.data;
    return html`
      <gw-page-header heading="Budgets"
        description="Spend limits per day, week, month or rolling window, for a key, a group or everything. A request over a limit gets 429 until it resets.">
        <button class="primary" @click=${() => this.openForm(null)}>${icon("plus")}Set budget</button>
      </gw-page-header>
            ${this.frame(this.state, (data) =>
              html`${this.table(data.budgets, data.timezone)}
                <gw-period-budgets .data=${data} @gw-changed=${() =>
                this.state.refresh()}></gw-period-budgets>`)}
            ${this.formDialog(d?.keys ?? [])}
    `;
  }

  private table(budgets: readonly BudgetView[], timezone: string) {
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
        const { status } = b;
        return html`
          <tr>
            <td><b>${b.scope_label || b.scope}</b></td>
            <td class="right num">${formatCost(b.daily_limit)}</td>
            <td class="right num">${b.warn_pct}%</td>
            <td>
              <gw-meter .spent=${b.spent_today} .limit=${b.daily_limit} .warnPct=${b
                .warn_pct} .status=${status}></gw-meter>
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

  private formDialog(keys: BudgetsSection["keys"]) {
    const f = this.form;
    return html`<gw-dialog .open=${f !== null} heading=${
      f?.editing ? "Edit budget" : "Set budget"
    } @gw-close=${() => (this.form = null)}>
      ${
      f
        ? html`<form id="budget-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formErrorBanner()}
          <gw-field label="Applies to" .error=${this.fieldError("scope")}>
            <select name="scope" ?disabled=${f.editing} @change=${(e: Event) =>
          this.patch({ scope: (e.target as HTMLSelectElement).value })}>
              <option value="global" ?selected=${f.scope === "global"}>Global (all traffic)</option>
              ${
          keys.map((k) =>
            html`<option value=${k.id} ?selected=${f.scope === String(k.id)}>Key: ${k.name}</option>`
          )
        }
            </select></gw-field>
          <div class="form-grid">
            <gw-field label="Daily limit (USD)" required .error=${this.fieldError("daily_limit")}>
              <input name="daily_limit" type="number" min="0" step="0.01" inputmode="decimal" .value=${f.limit}
                aria-invalid=${this.invalid("daily_limit")} @input=${(e: Event) =>
          this.patch({ limit: inputValue(e) })}></gw-field>
            <gw-field label="Warn at (%)" .error=${this.fieldError("warn_pct")} hint="1 to 100">
              <input name="warn_pct" type="number" min="1" max="100" step="1" .value=${f.warn}
                aria-invalid=${this.invalid("warn_pct")} @input=${(e: Event) =>
          this.patch({ warn: inputValue(e) })}></gw-field>
          </div>
        </form>`
        : nothing
    }
      ${this.formFooter("budget-form", "Save budget")}
    </gw-dialog>`;
  }

  private openForm(b: BudgetView | null): void {
    this.showForm(
      b
        ? {
          scope: b.key_id === null ? "global" : String(b.key_id),
          limit: String(b.daily_limit),
          warn: String(b.warn_pct),
          editing: true,
        }
        : { scope: "global", limit: "", warn: "80", editing: false },
    );
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
    const result = await this.saveForm(
      errors,
      ["scope", "daily_limit", "warn_pct"],
      () =>
        call("POST /budgets", {
          body: {
            scope: f.scope === "global" ? "global" : Number(f.scope),
            daily_limit: Number(f.limit),
            warn_pct: f.warn.trim() === "" ? 80 : warn,
          },
        }),
    );
    if (!result) return;
    this.toast("Budget saved");
    await this.state.refresh();
  };

  private async deleteItem(b: BudgetView): Promise<void> {
    const result = await call("DELETE /budgets/:id", { params: { id: b.id } });
    if (result.ok) this.toast(`Removed the ${b.scope_label || "budget"} limit`);
    else this.toast(result.message, "error");
    await this.state.refresh();
  }
}

customElements.define("gw-budgets-screen", GwBudgetsScreen);
