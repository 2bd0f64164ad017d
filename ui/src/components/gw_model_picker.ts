import { css, html, LitElement, nothing } from "lit";
import { FetchModelsEvent, ModelsPickedEvent } from "../lib/events.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

/** Fetch Models for the provider form: a button that asks for the upstream's list, then one chip per model. */
export class GwModelPicker extends LitElement {
  static override properties = { models: { attribute: false }, fetching: { type: Boolean } };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .fetched {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        max-height: 160px;
        overflow: auto;
        margin-top: 8px;
      }
      .fetched button {
        font-family: var(--gw-mono);
        font-weight: 450;
      }
    `,
  ];
  declare models: readonly string[];
  declare fetching: boolean;

  constructor() {
    super();
    this.models = [];
    this.fetching = false;
  }

  override render() {
    const models = this.models;
    return html`
      <div class="row">
        <button type="button" class="sm" ?disabled=${this.fetching}
          @click=${() => this.dispatchEvent(new FetchModelsEvent())}>${icon("download", 14)}${this.fetching
            ? "Fetching…"
            : "Fetch models from upstream"}</button>
        ${models.length > 0
          ? html`<button type="button" class="sm ghost" @click=${() =>
            this.pick(models)}>Add all ${models.length}</button>`
          : nothing}
      </div>
      ${models.length > 0
        ? html`<div class="fetched">${
          models.map((m) =>
            html`<button type="button" class="sm" @click=${() => this.pick([m])}>${
              icon("plus", 12)
            }${m}</button>`
          )
        }</div>`
        : nothing}
    `;
  }

  private pick(models: readonly string[]): void {
    this.dispatchEvent(new ModelsPickedEvent(models));
  }
}
customElements.define("gw-model-picker", GwModelPicker);

declare global {
  interface HTMLElementTagNameMap {
    "gw-model-picker": GwModelPicker;
  }
}
