import { css, html, LitElement, nothing } from "lit";
import type { AccountQuotaState, QuotaWindowState } from "../../../src/features/routing/contract.ts";
import { sharedStyles } from "../styles/shared.ts";
import { meterBar, meterBarStyles, type MeterLevel } from "./meter_bar.ts";

/** One account's limit windows as headroom bars with reset countdowns, and why it goes last. */
export class GwQuotaBars extends LitElement {
  static override properties = { quota: { attribute: false } };
  static override styles = [
    sharedStyles,
    meterBarStyles,
    css`
      :host {
        display: block;
        width: 100%;
        --gw-meter-height: 6px;
      }
      .window {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 2px 8px;
        align-items: center;
        font-size: var(--gw-text-xs);
        margin-top: 6px;
      }
      .amount {
        text-align: right;
      }
      .track {
        grid-column: 1 / -1;
      }
      .why {
        margin-top: 4px;
        font-size: var(--gw-text-xs);
        color: var(--gw-danger);
      }
      .name {
        font-family: var(--gw-mono);
        color: var(--gw-text-muted);
      }
    `,
  ];
  declare quota: AccountQuotaState | null;

  constructor() {
    super();
    this.quota = null;
  }

  override render() {
    const q = this.quota;
    if (q === null) return nothing;
    return html`
      ${q.windows.map((w) => this.bar(w))}
      ${q.deprioritised
        ? html`<div class="why" data-testid="deprioritised">Goes last: ${q.reason}</div>`
        : nothing}
    `;
  }

  private bar(w: QuotaWindowState) {
    const share = w.headroom === null ? null : Math.max(Math.min(w.headroom, 1), 0);
    const level: MeterLevel = w.rejected || share === 0
      ? "danger"
      : share !== null && share < 0.2
      ? "warn"
      : "ok";
    const percent = share === null ? 0 : Math.round(share * 100);
    const amount = w.limit !== null && w.remaining !== null
      ? `${w.remaining}/${w.limit} left`
      : share !== null
      ? `${Math.round(share * 100)}% left`
      : "unknown";
    return html`
      <div class="window" data-testid="quota-window" data-window=${w.id}
        title="${w.source === "configured" ? "configured limit" : "reported by the upstream"}">
        <span class="name">${w.id}${w.source === "configured" ? " (cfg)" : ""}</span>
        ${meterBar(percent, level, { label: `${w.id} headroom`, max: 100, now: percent })}
        <span>${w.rejected ? "rejected" : amount}${w.reset_at !== null
          ? html`
            · resets in <gw-countdown .until=${w.reset_at}></gw-countdown>
          `
          : nothing}</span>
      </div>
    `;
  }
}
customElements.define("gw-quota-bars", GwQuotaBars);
