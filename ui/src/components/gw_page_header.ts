import { css, html, LitElement } from "lit";
import { sharedStyles } from "../styles/shared.ts";

/** Screen title, one-line description and a slot for the screen's main actions. */
export class GwPageHeader extends LitElement {
  static override properties = { heading: {}, description: {} };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        margin-bottom: var(--gw-space-5);
      }
      .wrap {
        display: flex;
        align-items: flex-end;
        justify-content: space-between;
        gap: var(--gw-space-4);
        flex-wrap: wrap;
      }
      h1 {
        font-size: var(--gw-text-2xl);
        font-weight: 650;
        letter-spacing: -0.02em;
        line-height: 1.2;
      }
      p {
        color: var(--gw-text-muted);
        margin-top: 4px;
      }
      .actions {
        display: flex;
        gap: var(--gw-space-2);
        flex-wrap: wrap;
      }
      @media (max-width: 640px) {
        h1 {
          font-size: var(--gw-text-xl);
        }
      }
    `,
  ];
  declare heading: string;
  declare description: string;

  constructor() {
    super();
    this.heading = "";
    this.description = "";
  }

  override render() {
    return html`
      <div class="wrap">
        <div><h1>${this.heading}</h1>${this.description ? html`<p>${this.description}</p>` : null}</div>
        <div class="actions"><slot></slot></div>
      </div>
    `;
  }
}
customElements.define("gw-page-header", GwPageHeader);

declare global {
  interface HTMLElementTagNameMap {
    "gw-page-header": GwPageHeader;
  }
}
