import { css, html, LitElement } from "lit";
import { sharedStyles } from "../styles/shared.ts";

/** One headline number with a label and an optional hint underneath. */
export class GwStat extends LitElement {
  static override properties = { label: {}, value: {}, hint: {}, tone: {} };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .card {
        padding: var(--gw-space-4) var(--gw-space-5);
        height: 100%;
      }
      .label {
        color: var(--gw-text-muted);
        font-size: var(--gw-text-sm);
        font-weight: 550;
      }
      .value {
        font-size: var(--gw-text-2xl);
        font-weight: 650;
        letter-spacing: -0.02em;
        margin-top: 2px;
        font-variant-numeric: tabular-nums;
      }
      .hint {
        color: var(--gw-text-faint);
        font-size: var(--gw-text-xs);
        margin-top: 2px;
      }
      .ok .value {
        color: var(--gw-ok);
      }
      .warn .value {
        color: var(--gw-warn);
      }
      .danger .value {
        color: var(--gw-danger);
      }
      @media (max-width: 640px) {
        .card {
          padding: var(--gw-space-3) var(--gw-space-4);
        }
        .value {
          font-size: var(--gw-text-xl);
        }
      }
    `,
  ];
  declare label: string;
  declare value: string;
  declare hint: string;
  declare tone: "" | "ok" | "warn" | "danger";

  constructor() {
    super();
    this.label = "";
    this.value = "";
    this.hint = "";
    this.tone = "";
  }

  override render() {
    return html`<div class="card ${this.tone}">
      <div class="label">${this.label}</div>
      <div class="value">${this.value}</div>
      ${this.hint ? html`<div class="hint">${this.hint}</div>` : null}
      <slot></slot>
    </div>`;
  }
}
customElements.define("gw-stat", GwStat);

declare global {
  interface HTMLElementTagNameMap {
    "gw-stat": GwStat;
  }
}
