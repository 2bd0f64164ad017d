import { css, html, LitElement } from "lit";
import { formatCost, formatPercent } from "../lib/format.ts";
import { sharedStyles } from "../styles/shared.ts";
import { meterBar, meterBarStyles, type MeterLevel } from "./meter_bar.ts";

/** A budget status as a bar colour. */
const BUDGET_LEVELS: Readonly<Record<string, MeterLevel>> = { ok: "ok", warning: "warn", exceeded: "danger" };

/** A spend bar: spent of limit, coloured ok / warning / exceeded. */
export class GwMeter extends LitElement {
  static override properties = {
    spent: { type: Number },
    limit: { type: Number },
    warnPct: { type: Number },
    status: {},
  };
  static override styles = [
    sharedStyles,
    meterBarStyles,
    css`
      :host {
        display: block;
      }
      .legend {
        display: flex;
        justify-content: space-between;
        font-size: var(--gw-text-xs);
        color: var(--gw-text-muted);
        margin-top: 6px;
        font-variant-numeric: tabular-nums;
      }
    `,
  ];
  declare spent: number;
  declare limit: number;
  declare warnPct: number;
  declare status: string;

  constructor() {
    super();
    this.spent = 0;
    this.limit = 0;
    this.warnPct = 80;
    this.status = "";
  }

  override render() {
    const pct = this.limit > 0 ? (this.spent / this.limit) * 100 : 0;
    const status = this.status || (pct >= 100 ? "exceeded" : pct >= this.warnPct ? "warning" : "ok");
    return html`
      <div class=${status}>
        ${meterBar(pct, BUDGET_LEVELS[status] ?? "ok", { max: this.limit, now: this.spent })}
        <div class="legend"><span>${formatCost(this.spent)} of ${formatCost(
          this.limit,
        )}</span><span>${formatPercent(pct)}</span></div>
      </div>
    `;
  }
}
customElements.define("gw-meter", GwMeter);

declare global {
  interface HTMLElementTagNameMap {
    "gw-meter": GwMeter;
  }
}
