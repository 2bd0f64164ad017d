import { css, html, LitElement } from "lit";
import { ValueEvent } from "../lib/events.ts";
import { sharedStyles } from "../styles/shared.ts";

/** One option of a segmented control. */
export interface SegmentOption {
  readonly value: string;
  readonly label: string;
}

/** A row of mutually exclusive buttons (periods, dimensions); emits ValueEvent<string>. */
export class GwSegmented extends LitElement {
  static override properties = { options: { attribute: false }, value: {}, label: {} };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: inline-flex;
        max-width: 100%;
      }
      .seg {
        display: inline-flex;
        padding: 3px;
        gap: 2px;
        background: var(--gw-surface-2);
        border: 1px solid var(--gw-border);
        border-radius: 9px;
        overflow-x: auto;
        max-width: 100%;
      }
      button {
        height: 28px;
        border: none;
        background: transparent;
        color: var(--gw-text-muted);
        padding: 0 12px;
        border-radius: 6px;
      }
      button:hover {
        background: var(--gw-surface-3);
        color: var(--gw-text);
      }
      button[aria-pressed="true"] {
        background: var(--gw-surface);
        color: var(--gw-text);
        box-shadow: var(--gw-shadow);
      }
    `,
  ];
  declare options: readonly SegmentOption[];
  declare value: string;
  declare label: string;

  constructor() {
    super();
    this.options = [];
    this.value = "";
    this.label = "";
  }

  override render() {
    return html`<div class="seg" role="group" aria-label=${this.label}>${
      this.options.map((o) =>
        html`<button aria-pressed=${o.value === this.value ? "true" : "false"} @click=${() =>
          this.pick(o.value)}>${o.label}</button>`
      )
    }</div>`;
  }

  private pick(value: string): void {
    if (value === this.value) return;
    this.value = value;
    this.dispatchEvent(new ValueEvent(value));
  }
}
customElements.define("gw-segmented", GwSegmented);

declare global {
  interface HTMLElementTagNameMap {
    "gw-segmented": GwSegmented;
  }
}
