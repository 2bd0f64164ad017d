import { css, html, LitElement } from "lit";
import type { Alert } from "../../../src/dashboard/contract/usage.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

/** Banners for the alerts a state response carries; each can be dismissed for this visit. */
export class GwAlerts extends LitElement {
  static override properties = { alerts: { attribute: false }, dismissed: { state: true } };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .list {
        display: flex;
        flex-direction: column;
        gap: var(--gw-space-2);
        margin-bottom: var(--gw-space-4);
      }
      .list:empty {
        display: none;
      }
      .banner {
        display: flex;
        align-items: flex-start;
        gap: 10px;
        padding: 10px 12px 10px 14px;
        border-radius: var(--gw-radius);
        border: 1px solid;
        font-size: var(--gw-text-sm);
      }
      .banner svg {
        margin-top: 2px;
        flex: none;
      }
      .banner .text {
        flex: 1;
      }
      .warning {
        background: var(--gw-warn-soft);
        color: var(--gw-warn);
        border-color: color-mix(in srgb, var(--gw-warn) 30%, transparent);
      }
      .critical {
        background: var(--gw-danger-soft);
        color: var(--gw-danger);
        border-color: color-mix(in srgb, var(--gw-danger) 30%, transparent);
      }
      .info {
        background: var(--gw-info-soft);
        color: var(--gw-info);
        border-color: color-mix(in srgb, var(--gw-info) 30%, transparent);
      }
      .text {
        color: var(--gw-text);
      }
      .text b {
        font-weight: 600;
      }
      .detail {
        color: var(--gw-text-muted);
      }
      button.icon {
        height: 24px;
        width: 24px;
        color: inherit;
      }
    `,
  ];
  declare alerts: readonly Alert[];
  declare dismissed: ReadonlySet<string>;

  constructor() {
    super();
    this.alerts = [];
    this.dismissed = new Set();
  }

  override render() {
    const visible = this.alerts.filter((a) => !this.dismissed.has(a.id));
    return html`<div class="list" role="status">${
      visible.map((a) =>
        html`<div class="banner ${a.severity}">
          ${icon(a.severity === "info" ? "info" : "alert")}
          <span class="text"><b>${a.title}</b>${
          a.detail
            ? html`
              <span class="detail">${a.detail}</span>
            `
            : null
        }${
          a.href && !location.pathname.startsWith(a.href)
            ? html`
              <a href=${a.href}>Open</a>
            `
            : null
        }</span>
          <button class="icon ghost sm" aria-label="Dismiss" @click=${() => this.dismiss(a)}>${
          icon("x", 14)
        }</button>
        </div>`
      )
    }</div>`;
  }

  private dismiss(alert: Alert): void {
    this.dismissed = new Set([...this.dismissed, alert.id]);
  }
}
customElements.define("gw-alerts", GwAlerts);

declare global {
  interface HTMLElementTagNameMap {
    "gw-alerts": GwAlerts;
  }
}
