import { css, html, LitElement, nothing } from "lit";
import type { AccountQuotaState, QuotaWindowState } from "../../../src/features/routing/contract.ts";
import { sharedStyles } from "../styles/shared.ts";

/** One account's limit windows as headroom bars with reset countdowns, and why it goes last. */
export class GwQuotaBars extends LitElement {
  static override properties = { quota: { attribute: false } };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        width: 100%;
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
        height: 6px;
        border-radius: 999px;
        background: var(--gw-surface-3);
        overflow: hidden;
      }
      .fill {
        height: 100%;
        border-radius: inherit;
        background: var(--gw-ok);
      }
      .low .fill {
        background: var(--gw-warn);
      }
      .empty .fill {
        background: var(--gw-danger);
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
    const level = w.rejected || share === 0 ? "empty" : share !== null && share < 0.2 ? "low" : "";
    const amount = w.limit !== null && w.remaining !== null
      ? `${w.remaining}/${w.limit} left`
      : share !== null
      ? `${Math.round(share * 100)}% left`
      : "unknown";
    return html`
      <div class="window ${level}" data-testid="quota-window" data-window=${w.id}
        title="${w.source === "configured" ? "configured limit" : "reported by the upstream"}">
        <span class="name">${w.id}${w.source === "configured" ? " (cfg)" : ""}</span>
        <div class="track" role="meter" aria-label="${w.id} headroom" aria-valuemin="0" aria-valuemax="100"
          aria-valuenow=${share === null ? 0 : Math.round(share * 100)}>
          <div class="fill" style="width: ${share === null ? 0 : Math.round(share * 100)}%"></div>
        </div>
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
