import { css, html, LitElement } from "lit";
import { ValueEvent } from "../lib/events.ts";
import { formatRemaining } from "../lib/format.ts";

/** Remaining time until `until` (epoch ms), ticking every second; emits ValueEvent("expired") at zero. */
export class GwCountdown extends LitElement {
  static override properties = { until: { type: Number }, now: { state: true } };
  static override styles = css`
    :host {
      font-variant-numeric: tabular-nums;
      font-weight: 600;
    }
    .done {
      color: var(--gw-ok);
    }
  `;
  declare until: number;
  declare now: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fired = false;

  constructor() {
    super();
    this.until = 0;
    this.now = Date.now();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.timer = setInterval(() => this.tick(), 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.timer);
  }

  override render() {
    const left = (this.until - this.now) / 1000;
    return left <= 0 ? html`<span class="done">ready</span>` : html`<span>${formatRemaining(left)}</span>`;
  }

  private tick(): void {
    this.now = Date.now();
    if (!this.fired && this.now >= this.until) {
      this.fired = true;
      this.dispatchEvent(new ValueEvent("expired"));
    }
  }
}
customElements.define("gw-countdown", GwCountdown);

declare global {
  interface HTMLElementTagNameMap {
    "gw-countdown": GwCountdown;
  }
}
