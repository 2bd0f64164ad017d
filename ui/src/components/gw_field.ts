import { css, html, LitElement } from "lit";
import { sharedStyles } from "../styles/shared.ts";

/** A labelled form field: slot the control, and the server's or the form's error shows beneath it. */
export class GwField extends LitElement {
  static override properties = { label: {}, error: {}, hint: {}, required: { type: Boolean } };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        gap: 6px;
        min-width: 0;
      }
      .label {
        font-size: var(--gw-text-sm);
        font-weight: 550;
      }
      .req {
        color: var(--gw-danger);
        margin-left: 2px;
      }
      .hint {
        color: var(--gw-text-faint);
        font-size: var(--gw-text-xs);
      }
      .error {
        color: var(--gw-danger);
        font-size: var(--gw-text-xs);
        font-weight: 550;
      }
    `,
  ];
  declare label: string;
  declare error: string;
  declare hint: string;
  declare required: boolean;

  constructor() {
    super();
    this.label = "";
    this.error = "";
    this.hint = "";
    this.required = false;
  }

  override render() {
    return html`
      ${this.label
        ? html`<span class="label">${this.label}${
          this.required ? html`<span class="req">*</span>` : null
        }</span>`
        : null}
      <slot></slot>
      ${this.error
        ? html`<span class="error" role="alert">${this.error}</span>`
        : this.hint
        ? html`<span class="hint">${this.hint}</span>`
        : null}
    `;
  }
}
customElements.define("gw-field", GwField);

declare global {
  interface HTMLElementTagNameMap {
    "gw-field": GwField;
  }
}
