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

/** Prices per unit of audio and rerank models: per second of audio, per million characters, per search. */
const UNIT_RATES = [
  ["per_second", "Audio $/second", "Transcription billed by duration"],
  ["per_mchar", "Speech $/M characters", "Text-to-speech input"],
  ["per_search_unit", "Rerank $/search unit", "A query with up to 100 documents"],
] as const;

type RateKey = (typeof RATES)[number][0] | (typeof UNIT_RATES)[number][0];

/** The draft; `per_image` is one `variant = usd` per line. */
type PriceForm = { editing: boolean; model: string; per_image: string } & Record<RateKey, string>;

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
        description="USD per million tokens, per image, per second of audio, per million characters of speech or per rerank search. Overrides win over builtins; names match by longest prefix.">
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
            <tr><th>Model</th>${RATES.map(([, label]) =>
              html`<th class="right">${label}</th>`
            )}<th>Per unit</th>${editable ? html`<th></th>` : nothing}</tr>
          </thead>
          <tbody>${rows.map((p) =>
            html`<tr><td class="mono small">${p.model}</td>${
              RATES.map(([k]) => html`<td class="right num">${rate(p[k])}</td>`)
            }<td class="small" data-testid="per-unit">${perUnit(p)}</td>
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
          <div class="form-grid">${
          UNIT_RATES.map(([k, label, hint]) =>
            html`<gw-field label=${label} hint=${hint} .error=${this.fieldError(k)}>
              <input name=${k} type="number" min="0" step="0.0001" inputmode="decimal" .value=${
              f[k]
            } aria-invalid=${this.invalid(k)}
                @input=${(e: Event) => this.patch({ [k]: inputValue(e) })}></gw-field>`
          )
        }</div>
          <gw-field label="Per image $" .error=${this.fieldError("per_image")}
            hint="One variant a line: quality@size = USD (hd@1024x1024 = 0.08), quality, @size, or * for any image">
            <textarea name="per_image" rows="3" class="mono" .value=${f.per_image} aria-invalid=${
          this.invalid(
            "per_image",
          )
        }
              @input=${(e: Event) => this.patch({ per_image: inputValue(e) })}></textarea></gw-field>
        </form>`
        : nothing
    }
      ${this.formFooter("price-form", "Save price")}
    </gw-dialog>`;
  }

  /** Opens the form empty, for a model without a price (`{model}`), or on an override to edit. */
  private openForm(p: PriceView | { readonly model: string } | null): void {
    const price = p !== null && "input_per_mtok" in p ? p : null;
    const text = (k: RateKey) => (price?.[k] === undefined ? "" : String(price[k]));
    this.showForm({
      editing: price !== null,
      model: p?.model ?? "",
      input_per_mtok: text("input_per_mtok"),
      output_per_mtok: text("output_per_mtok"),
      cache_creation_per_mtok: text("cache_creation_per_mtok"),
      cache_read_per_mtok: text("cache_read_per_mtok"),
      per_second: text("per_second"),
      per_mchar: text("per_mchar"),
      per_search_unit: text("per_search_unit"),
      per_image: Object.entries(price?.per_image ?? {}).map(([variant, usd]) => `${variant} = ${usd}`).join(
        "\n",
      ),
    });
  }

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const errors: Record<string, string> = {};
    if (!/^\S+$/.test(f.model.trim())) errors.model = "Enter a model name without spaces";
    for (const k of [...RATES, ...UNIT_RATES].map(([k]) => k)) {
      const raw = f[k].trim();
      const required = k === "input_per_mtok" || k === "output_per_mtok";
      if (raw === "" ? required : !(Number(raw) >= 0)) {
        errors[k] = required && raw === "" ? "Required" : "Enter 0 or more";
      }
    }
    const perImage = parseImagePrices(f.per_image);
    if (typeof perImage === "string") errors.per_image = perImage;
    const rate = (k: RateKey) => (f[k].trim() === "" ? undefined : Number(f[k]));
    const body: PriceInput = {
      model: f.model.trim(),
      input_per_mtok: Number(f.input_per_mtok),
      output_per_mtok: Number(f.output_per_mtok),
      cache_creation_per_mtok: rate("cache_creation_per_mtok"),
      cache_read_per_mtok: rate("cache_read_per_mtok"),
      per_second: rate("per_second"),
      per_mchar: rate("per_mchar"),
      per_search_unit: rate("per_search_unit"),
      per_image: typeof perImage === "string" ? undefined : perImage,
    };
    const known = ["model", "per_image", ...RATES.map(([k]) => k), ...UNIT_RATES.map(([k]) => k)];
    const result = await this.saveForm(errors, known, async () => {
      const answer = await call("POST /pricing", { body });
      // The server names a bad variant's price `per_image.<variant>`: it belongs under the one field.
      if (answer.ok) return answer;
      const fields = Object.fromEntries(
        Object.entries(answer.fields).map(([k, m]) => k.startsWith("per_image.") ? ["per_image", m] : [k, m]),
      );
      return { ...answer, fields };
    });
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

/** A price without trailing zeros: per-unit prices go to a fraction of a cent ($0.006 a second). */
function usd(n: number): string {
  return `$${Number(n.toPrecision(6))}`;
}

/** The per-image, per-second, per-character and per-search prices of a row, or a dash for token-only models. */
function perUnit(p: PriceView): string {
  const parts: string[] = [];
  if (p.per_image !== undefined) {
    const variants = Object.entries(p.per_image);
    const any = p.per_image["*"];
    parts.push(
      variants.length === 1 && any !== undefined
        ? `${usd(any)}/image`
        : variants.map(([variant, price]) => `${variant} ${usd(price)}`).join(", ") + " /image",
    );
  }
  if (p.per_second !== undefined) parts.push(`${usd(p.per_second)}/second`);
  if (p.per_mchar !== undefined) parts.push(`${usd(p.per_mchar)}/M chars`);
  if (p.per_search_unit !== undefined) parts.push(`${usd(p.per_search_unit)}/search unit`);
  return parts.length === 0 ? "–" : parts.join(" · ");
}

/**
 * The per-image field's lines (`variant = usd`) as the API's object, undefined when empty, or the first
 * problem as a message for the field.
 */
function parseImagePrices(text: string): Record<string, number> | undefined | string {
  const prices: Record<string, number> = {};
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const match = /^\s*(\S+)\s*=\s*(\S+)\s*$/.exec(line);
    if (!match) return `Line ${i + 1}: write variant = USD, e.g. hd@1024x1024 = 0.08`;
    const price = Number(match[2]);
    if (!(price >= 0)) return `Line ${i + 1}: the price of ${match[1]} must be 0 or more`;
    prices[match[1]] = price;
  }
  return Object.keys(prices).length === 0 ? undefined : prices;
}

customElements.define("gw-pricing-screen", GwPricingScreen);
