import { css, html, LitElement } from "lit";
import { ValueEvent } from "../lib/events.ts";
import { formatInt } from "../lib/format.ts";
import { sharedStyles } from "../styles/shared.ts";

/** Previous / next paging over `total` rows; emits ValueEvent<number> with the new offset. */
export class GwPager extends LitElement {
  static override properties = { total: { type: Number }, limit: { type: Number }, offset: { type: Number } };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .row-between {
        font-size: var(--gw-text-sm);
        color: var(--gw-text-muted);
      }
    `,
  ];
  declare total: number;
  declare limit: number;
  declare offset: number;

  constructor() {
    super();
    this.total = 0;
    this.limit = 50;
    this.offset = 0;
  }

  override render() {
    const from = this.total === 0 ? 0 : this.offset + 1;
    const to = Math.min(this.total, this.offset + this.limit);
    const page = Math.floor(this.offset / this.limit) + 1;
    const pages = Math.max(1, Math.ceil(this.total / this.limit));
    return html`
      <div class="row-between">
        <span class="num">${formatInt(from)}–${formatInt(to)} of ${formatInt(this.total)}</span>
        <div class="row">
          <span class="num">Page ${page} of ${pages}</span>
          <button class="sm" ?disabled=${this.offset === 0} @click=${() =>
            this.go(this.offset - this.limit)}>Previous</button>
          <button class="sm" ?disabled=${to >= this.total} @click=${() =>
            this.go(this.offset + this.limit)}>Next</button>
        </div>
      </div>
    `;
  }

  private go(offset: number): void {
    this.dispatchEvent(new ValueEvent(Math.max(0, offset)));
  }
}
customElements.define("gw-pager", GwPager);

declare global {
  interface HTMLElementTagNameMap {
    "gw-pager": GwPager;
  }
}
