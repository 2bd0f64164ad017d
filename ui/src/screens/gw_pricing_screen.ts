import { css, html, nothing } from "lit";
import type { PriceInput, PriceView, PricingSection } from "../../../src/features/pricing/contract.ts";
import { call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { inputValue } from "../lib/form.ts";
import { formatInt } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";
import { FormScreen } from "./form_screen.ts";

const RATES = [
  ["input_per_mtok", "Input"],
  ["output_per_mtok", "Output"],
  ["cache_creation_per_mtok", "Cache write"],
  ["cache_read_per_mtok", "Cache read"],
] as const;

type PriceForm = { editing: boolean; model: string } & Record<(typeof RATES)[number][0], string>;

/** Pricing: builtin prices (read-only) and database overrides (add / edit / delete). */
export class GwPricingScreen extends FormScreen<PriceForm> {
  static override properties = {
    filter: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .search {
        max-width: 280px;
      }
    `,
  ];
  declare filter: string;
  private state = new StateController(this, "pricing");

  constructor() {
    super();
    this.filter = "";
  }

  protected override willUpdate(): void {
    if (this.takeAction() === "create") this.openForm(null);
  }

  override render() {
    return html`
      <gw-page-header heading="Pricing"
        description="USD per million tokens. Overrides win over builtins; names match by longest prefix.">
        <button class="primary" @click=${() => this.openForm(null)}>${icon("plus")}Add override</button>
      </gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))} ${this.formDialog()}
    `;
  }

  private body(d: PricingSection) {
    const { overrides } = d;
    const builtin = d.builtin.filter((p) => p.model.toLowerCase().includes(this.filter.toLowerCase()));
    const { unpriced } = d;
    return html`<div class="stack">
      ${
      unpriced.length > 0
        ? html`
          <div class="card">
            <div
              class="card-head"><h2>Used without a price</h2><span class="small muted">cost recorded as $0</span></div>
            <div class="card-body chips">${unpriced.map((u) =>
              html`<button class="sm" @click=${() => this.openForm({ model: u.model })}>${
                icon("plus", 12)
              }${u.model} · ${formatInt(u.requests)} req</button>`
            )}</div>
          </div>
        `
        : nothing
    }
      <div class="card"><div class="card-head"><h2>Overrides</h2><span class="small muted">${overrides.length}</span></div>
        ${
      overrides.length === 0
        ? html`
          <div
            class="card-body muted small">No overrides. Add one to price a model the builtins miss or to correct a price.</div>
        `
        : this.priceTable(overrides, true)
    }</div>
      <div class="card"><div class="card-head"><h2>Builtin prices</h2>
        <input class="search" type="search" placeholder="Filter models" aria-label="Filter builtin prices" .value=${this.filter}
          @input=${(e: Event) => (this.filter = (e.target as HTMLInputElement).value)}></div>
        ${this.priceTable(builtin, false)}</div>
    </div>`;
  }

  private priceTable(rows: readonly PriceView[], editable: boolean) {
    return html`
      <div class="table-wrap">
        <table>
          <thead>
            <tr><th>Model</th>${RATES.map(([, label]) => html`<th class="right">${label}</th>`)}${editable
              ? html`<th></th>`
              : nothing}</tr>
          </thead>
          <tbody>${rows.map((p) =>
            html`<tr><td class="mono small">${p.model}</td>${
              RATES.map(([k]) => html`<td class="right num">${rate(p[k])}</td>`)
            }
        ${
              editable
                ? html`<td class="right nowrap"><button class="sm ghost" @click=${() => this.openForm(p)}>${
                  icon("edit", 14)
                }Edit</button>
            <button class="sm ghost danger" aria-label="Delete ${p.model}" @click=${() =>
                  this.deleteItem(p.model)}>${icon("trash", 14)}</button></td>`
                : html``
            }</tr>`
          )}</tbody>
        </table>
      </div>
    `;
  }

  private formDialog() {
    const f = this.form;
    return html`<gw-dialog .open=${f !== null} heading=${
      f?.editing ? `Edit ${f.model}` : "Add pricing override"
    } @gw-close=${() => (this.form = null)}>
      ${
      f
        ? html`<form id="price-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formErrorBanner()}
          <gw-field label="Model" required .error=${
          this.fieldError("model")
        } hint="Full name or a prefix, e.g. gpt-4o or openai/gpt-4o">
            <input name="model" .value=${f.model} ?disabled=${f.editing} aria-invalid=${this.invalid("model")}
              @input=${(e: Event) => this.patch({ model: inputValue(e) })}></gw-field>
          <div class="form-grid">${
          RATES.map(([k, label]) =>
            html`<gw-field label="${label} $/M" ?required=${
              k === "input_per_mtok" || k === "output_per_mtok"
            } .error=${this.fieldError(k)}>
              <input name=${k} type="number" min="0" step="0.0001" inputmode="decimal" .value=${
              f[k]
            } aria-invalid=${this.invalid(k)}
                @input=${(e: Event) => this.patch({ [k]: inputValue(e) })}></gw-field>`
          )
        }</div>
        </form>`
        : nothing
    }
      ${this.formFooter("price-form", "Save price")}
    </gw-dialog>`;
  }

  /** Opens the form empty, for a model without a price (`{model}`), or on an override to edit. */
  private openForm(p: PriceView | { readonly model: string } | null): void {
    const price = p !== null && "input_per_mtok" in p ? p : null;
    const text = (k: (typeof RATES)[number][0]) => (price ? String(price[k]) : "");
    this.showForm({
      editing: price !== null,
      model: p?.model ?? "",
      input_per_mtok: text("input_per_mtok"),
      output_per_mtok: text("output_per_mtok"),
      cache_creation_per_mtok: text("cache_creation_per_mtok"),
      cache_read_per_mtok: text("cache_read_per_mtok"),
    });
  }

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const errors: Record<string, string> = {};
    if (!/^\S+$/.test(f.model.trim())) errors.model = "Enter a model name without spaces";
    for (const [k] of RATES) {
      const raw = f[k].trim();
      const required = k === "input_per_mtok" || k === "output_per_mtok";
      if (raw === "" ? required : !(Number(raw) >= 0)) {
        errors[k] = required && raw === "" ? "Required" : "Enter 0 or more";
      }
    }
    const rate = (k: (typeof RATES)[number][0]) => (f[k].trim() === "" ? undefined : Number(f[k]));
    const body: PriceInput = {
      model: f.model.trim(),
      input_per_mtok: Number(f.input_per_mtok),
      output_per_mtok: Number(f.output_per_mtok),
      cache_creation_per_mtok: rate("cache_creation_per_mtok"),
      cache_read_per_mtok: rate("cache_read_per_mtok"),
    };
    const known = ["model", ...RATES.map(([k]) => k)];
    const result = await this.saveForm(errors, known, () => call("POST /pricing", { body }));
    if (!result) return;
    this.toast(`Saved price for ${f.model.trim()}`);
    await this.state.refresh();
  };

  private async deleteItem(model: string): Promise<void> {
    const result = await call("DELETE /pricing/:model", { params: { model } });
    if (result.ok) this.toast(`Removed override for ${model}`);
    else this.toast(result.message, "error");
    await this.state.refresh();
  }
}

function rate(n: number): string {
  return `$${n.toFixed(n < 1 && n > 0 ? 3 : 2)}`;
}

customElements.define("gw-pricing-screen", GwPricingScreen);
