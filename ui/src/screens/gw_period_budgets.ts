import { html, nothing } from "lit";
import type { BudgetsSection, PeriodBudgetView } from "../../../src/features/budgets/contract.ts";
import { call } from "../api/client.ts";
import { ChangedEvent } from "../lib/events.ts";
import { inputValue as value } from "../lib/form.ts";
import { formatCost, formatDateTime } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { FormScreen } from "./form_screen.ts";

interface PeriodForm {
  /** "global", "key:<id>" or "group:<id>". */
  scope: string;
  period: "day" | "week" | "month" | "rolling";
  hours: string;
  limit: string;
  warn: string;
  hardStop: boolean;
  webhook: string;
  editing: boolean;
}

const EMPTY: PeriodForm = {
  scope: "global",
  period: "week",
  hours: "5",
  limit: "",
  warn: "80",
  hardStop: true,
  webhook: "",
  editing: false,
};

/**
 * The Budgets screen's budgets of every period (day, week, month, rolling window) and scope (a key, a key
 * group, the gateway), with warn threshold, hard stop and signed webhook, and the alerts they raised.
 */
export class GwPeriodBudgets extends FormScreen<PeriodForm> {
  static override properties = {
    ...FormScreen.properties,
    data: { attribute: false },
    secret: { state: true },
  };
  declare data: BudgetsSection | undefined;
  /** A webhook secret the gateway generated, shown once. */
  declare secret: string | null;

  constructor() {
    super();
    this.data = undefined;
    this.secret = null;
  }

  override render() {
    const d = this.data;
    if (d === undefined) return nothing;
    const names = new Map(d.period_budgets.map((b) => [b.id, `${b.scope_label} · ${periodText(b)}`]));
    return html`
      <div class="card" style="margin-top:16px">
        <div class="card-head"><h3>Budgets by period</h3>
          <button class="sm" @click=${() => this.showForm({ ...EMPTY })}>${icon(
            "plus",
            14,
          )}Add budget</button></div>
        ${d.period_budgets.length === 0
          ? html`<p class="small muted" style="padding:12px">No budgets. Weeks run Monday to Monday and months
            from the 1st, in ${d.timezone}; a rolling window counts the last hours.</p>`
          : html`
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Scope</th>
                    <th>Period</th>
                    <th class="right">Limit</th>
                    <th style="min-width:200px">Spent</th>
                    <th>Status</th>
                    <th>Resets</th>
                    <th>On limit</th>
                    <th>Webhook</th>
                    <th></th>
                  </tr>
                </thead>
                <tbody>${d.period_budgets.map((b) => this.row(b))}</tbody>
              </table>
            </div>
          `}
      </div>
      <div class="card" style="margin-top:16px" data-testid="budget-alerts">
        <div class="card-head"><h3>Budget alerts (7 days)</h3></div>
        ${d.alerts.length === 0
          ? html`<p class="small muted" style="padding:12px">No budget crossed its warn threshold.</p>`
          : html`
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Budget</th>
                    <th>Level</th>
                    <th class="right">Spent</th>
                    <th class="right">Limit</th>
                  </tr>
                </thead>
                <tbody>${d.alerts.map((a) =>
                  html`
                    <tr>
                      <td class="small nowrap">${formatDateTime(a.created_at)}</td>
                      <td>${names.get(a.budget_id) ?? `budget #${a.budget_id}`}</td>
                      <td><span class="badge ${a.level === "exceeded" ? "danger" : "warn"}">${a
                        .level}</span></td>
                      <td class="right num">${formatCost(a.spent)}</td>
                      <td class="right num">${formatCost(a.limit)}</td>
                    </tr>
                  `
                )}</tbody>
              </table>
            </div>
          `}
      </div>
      ${this.dialog(d)} ${this.secretDialog()}
    `;
  }

  private row(b: PeriodBudgetView) {
    return html`
      <tr>
        <td><b>${b.scope_label}</b> <span class="faint small">${b.scope}</span></td>
        <td>${periodText(b)}</td>
        <td class="right num">${formatCost(b.limit)}</td>
        <td>
          <gw-meter .spent=${b.spent} .limit=${b.limit} .warnPct=${b.warn_pct} .status=${b.status}></gw-meter>
        </td>
        <td><span class="badge ${b.status === "ok" ? "ok" : b.status === "warning" ? "warn" : "danger"}">${b
          .status}</span></td>
        <td class="small nowrap">${b.status === "exceeded" || b.period !== "rolling"
          ? formatDateTime(b.resets_at)
          : "–"}</td>
        <td class="small">${b.hard_stop ? "429" : "alert only"}</td>
        <td class="small">${b.webhook_url === null ? html`<span class="faint">–</span>` : "signed POST"}</td>
        <td class="right nowrap">
              <button class="sm ghost" aria-label="Edit budget ${b.id}" @click=${() => this.edit(b)}>${icon(
                "edit",
                14,
              )}Edit</button>
              <button class="sm ghost danger" aria-label="Delete budget ${b.id}" @click=${() =>
                this.deleteItem(b)}>${icon("trash", 14)}</button></td>
      </tr>
    `;
  }

  private dialog(d: BudgetsSection) {
    const f = this.form;
    return html`
      <gw-dialog .open=${f !== null} heading=${f?.editing ? "Edit budget" : "Add budget"}
        @gw-close=${() => (this.form = null)}>
            ${f
              ? html`<form id="period-budget-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formErrorBanner()}
          <div class="form-grid">
            <gw-field label="Applies to" .error=${this.fieldError("scope")}>
              <select name="scope" ?disabled=${f.editing} @change=${(e: Event) =>
                this.patch({ scope: (e.target as HTMLSelectElement).value })}>
                <option value="global" ?selected=${f.scope === "global"}>Global (all traffic)</option>
                ${
                d.groups.map((g) =>
                  html`<option value=${`group:${g.id}`} ?selected=${
                    f.scope === `group:${g.id}`
                  }>Group: ${g.name}</option>`
                )
              }
                ${
                d.keys.map((k) =>
                  html`<option value=${`key:${k.id}`} ?selected=${
                    f.scope === `key:${k.id}`
                  }>Key: ${k.name}</option>`
                )
              }
              </select></gw-field>
            <gw-field label="Period" .error=${this.fieldError("period")}>
              <select name="period" ?disabled=${f.editing} @change=${(e: Event) =>
                this.patch({ period: (e.target as HTMLSelectElement).value as PeriodForm["period"] })}>
                ${
                (["day", "week", "month", "rolling"] as const).map((p) =>
                  html`<option value=${p} ?selected=${f.period === p}>${
                    p === "rolling" ? "rolling window" : p
                  }</option>`
                )
              }
              </select></gw-field>
            ${
                f.period === "rolling"
                  ? html`<gw-field label="Window (hours)" .error=${this.fieldError("window_seconds")}>
                <input name="window_hours" type="number" min="0.1" step="0.5" .value=${f.hours} ?disabled=${f.editing}
                  @input=${(e: Event) => this.patch({ hours: value(e) })}></gw-field>`
                  : nothing
              }
          </div>
          <div class="form-grid">
            <gw-field label="Limit (USD)" required .error=${this.fieldError("limit")}>
              <input name="limit" type="number" min="0" step="0.01" .value=${f.limit} aria-invalid=${
                this.invalid("limit")
              } @input=${(e: Event) => this.patch({ limit: value(e) })}></gw-field>
            <gw-field label="Warn at (%)" .error=${this.fieldError("warn_pct")}>
              <input name="warn_pct" type="number" min="1" max="100" .value=${f.warn} @input=${(e: Event) =>
                this.patch({ warn: value(e) })}></gw-field>
          </div>
          <gw-field label="Webhook URL" .error=${this.fieldError("webhook_url")}
            hint="Optional: a signed POST (HMAC-SHA256) when the warn threshold or the limit is crossed">
            <input name="webhook_url" type="url" .value=${f.webhook} placeholder="https://hooks.example.com/budget"
              @input=${(e: Event) => this.patch({ webhook: value(e) })}></gw-field>
          <label class="check"><input type="checkbox" class="switch" name="hard_stop" .checked=${f.hardStop}
            @change=${(e: Event) =>
                this.patch({
                  hardStop: (e.target as HTMLInputElement).checked,
                })}>Refuse requests (429) over the limit</label>
        </form>`
              : nothing}
            ${this.formFooter("period-budget-form", "Save budget")}
          </gw-dialog>
    `;
  }

  private secretDialog() {
    return html`
      <gw-dialog .open=${this.secret !== null} heading="Webhook signing secret"
        @gw-close=${() => (this.secret = null)}>
        <p>Verify each delivery's <code>x-gateway-signature</code> with this secret. It is shown once.</p>
        <p><code data-testid="webhook-secret">${this.secret}</code></p>
        <button slot="footer" class="primary" @click=${() => (this.secret = null)}>I copied it</button>
      </gw-dialog>
    `;
  }

  private edit(b: PeriodBudgetView): void {
    this.showForm({
      scope: b.scope === "global" ? "global" : `${b.scope}:${b.scope_id}`,
      period: b.period,
      hours: b.window_seconds === null ? "5" : String(b.window_seconds / 3600),
      limit: String(b.limit),
      warn: String(b.warn_pct),
      hardStop: b.hard_stop,
      webhook: b.webhook_url ?? "",
      editing: true,
    });
  }

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const errors: Record<string, string> = {};
    if (!(Number(f.limit) > 0)) errors.limit = "Enter an amount above 0";
    if (f.period === "rolling" && !(Number(f.hours) > 0)) errors.window_seconds = "Enter a number of hours";
    const [kind, id] = f.scope.split(":");
    const result = await this.saveForm(
      errors,
      ["scope", "scope_id", "period", "window_seconds", "limit", "warn_pct", "webhook_url"],
      () =>
        call("POST /v2/budgets", {
          body: {
            scope: kind as "global" | "key" | "group",
            scope_id: id === undefined ? undefined : Number(id),
            period: f.period,
            window_seconds: f.period === "rolling" ? Math.round(Number(f.hours) * 3600) : undefined,
            limit: Number(f.limit),
            warn_pct: Number(f.warn) || 80,
            hard_stop: f.hardStop,
            webhook_url: f.webhook.trim() === "" ? null : f.webhook.trim(),
          },
        }),
    );
    if (!result) return;
    if (result.data.webhook_secret !== undefined) this.secret = result.data.webhook_secret;
    this.toast("Budget saved");
    this.dispatchEvent(new ChangedEvent());
  };

  private async deleteItem(b: PeriodBudgetView): Promise<void> {
    const result = await call("DELETE /budgets/:id", { params: { id: b.id } });
    if (result.ok) this.toast("Budget removed");
    else this.toast(result.message, "error");
    this.dispatchEvent(new ChangedEvent());
  }
}

/** "week", "month", "5 h rolling". */
function periodText(b: PeriodBudgetView): string {
  return b.period === "rolling" ? `${Math.round((b.window_seconds ?? 0) / 360) / 10} h rolling` : b.period;
}

customElements.define("gw-period-budgets", GwPeriodBudgets);
