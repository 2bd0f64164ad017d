import { css, html, LitElement } from "lit";
import { icon, type IconName } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

/** An empty state that says what to do next; the slot holds the call-to-action. */
export class GwEmpty extends LitElement {
  static override properties = { heading: {}, text: {}, icon: {} };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .wrap {
        text-align: center;
        padding: var(--gw-space-6) var(--gw-space-4);
        display: flex;
        flex-direction: column;
        align-items: center;
        gap: var(--gw-space-2);
      }
      .badge-icon {
        width: 44px;
        height: 44px;
        border-radius: 12px;
        display: grid;
        place-items: center;
        background: var(--gw-accent-soft);
        color: var(--gw-accent-soft-text);
        margin-bottom: var(--gw-space-2);
      }
      h3 {
        font-size: var(--gw-text-lg);
      }
      p {
        color: var(--gw-text-muted);
        max-width: 440px;
      }
      .actions {
        margin-top: var(--gw-space-3);
        display: flex;
        gap: var(--gw-space-2);
        flex-wrap: wrap;
        justify-content: center;
      }
    `,
  ];
  declare heading: string;
  declare text: string;
  declare icon: IconName;

  constructor() {
    super();
    this.heading = "";
    this.text = "";
    this.icon = "info";
  }

  override render() {
    return html`
      <div class="wrap">
        <div class="badge-icon">${icon(this.icon, 22)}</div>
        <h3>${this.heading}</h3>
        <p>${this.text}</p>
        <div class="actions"><slot></slot></div>
      </div>
    `;
  }
}
customElements.define("gw-empty", GwEmpty);

declare global {
  interface HTMLElementTagNameMap {
    "gw-empty": GwEmpty;
  }
}
