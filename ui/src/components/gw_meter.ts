import { css, html, LitElement } from "lit";
import { formatCost, formatPercent } from "../lib/format.ts";
import { sharedStyles } from "../styles/shared.ts";

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
    css`
      :host {
        display: block;
      }
      .track {
        height: 8px;
        border-radius: 999px;
        background: var(--gw-surface-3);
        overflow: hidden;
      }
      .fill {
        height: 100%;
        border-radius: inherit;
        background: var(--gw-ok);
        transition: width 300ms ease;
      }
      .warning .fill {
        background: var(--gw-warn);
      }
      .exceeded .fill {
        background: var(--gw-danger);
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
        <div class="track" role="meter" aria-valuemin="0" aria-valuemax=${this.limit} aria-valuenow=${this
          .spent}>
          <div class="fill" style="width:${Math.min(100, pct)}%"></div>
        </div>
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
