import { css, html, LitElement } from "lit";
import type { ToastKind } from "../lib/events.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

interface Toast {
  readonly id: number;
  readonly message: string;
  readonly kind: ToastKind;
}

/** Stack of short-lived messages in the corner; the shell calls show(). */
export class GwToasts extends LitElement {
  static override properties = { toasts: { state: true } };
  static override styles = [
    sharedStyles,
    css`
      :host {
        position: fixed;
        right: 16px;
        bottom: 16px;
        z-index: 100;
        display: flex;
        flex-direction: column;
        gap: 8px;
        max-width: min(420px, calc(100vw - 32px));
      }
      .toast {
        display: flex;
        gap: 10px;
        align-items: flex-start;
        padding: 10px 14px;
        border-radius: var(--gw-radius);
        background: var(--gw-surface);
        border: 1px solid var(--gw-border);
        box-shadow: var(--gw-shadow-lg);
        font-size: var(--gw-text-sm);
        animation: slide 160ms ease-out;
      }
      .toast svg {
        margin-top: 2px;
        flex: none;
      }
      .success svg {
        color: var(--gw-ok);
      }
      .error svg {
        color: var(--gw-danger);
      }
      .info svg {
        color: var(--gw-info);
      }
      @keyframes slide {
        from {
          transform: translateY(8px);
          opacity: 0;
        }
      }
    `,
  ];
  declare toasts: readonly Toast[];
  private nextId = 1;

  constructor() {
    super();
    this.toasts = [];
  }

  /** Shows a message for a few seconds (errors stay longer). */
  show(message: string, kind: ToastKind): void {
    const toast = { id: this.nextId++, message, kind };
    this.toasts = [...this.toasts.slice(-3), toast];
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t !== toast)), kind === "error" ? 7000 : 3500);
  }

  override render() {
    return html`${
      this.toasts.map((t) =>
        html`<div class="toast ${t.kind}" role=${t.kind === "error" ? "alert" : "status"}>
          ${
          icon(t.kind === "error" ? "alert" : t.kind === "info" ? "info" : "check")
        }<span>${t.message}</span>
        </div>`
      )
    }`;
  }
}
customElements.define("gw-toasts", GwToasts);

declare global {
  interface HTMLElementTagNameMap {
    "gw-toasts": GwToasts;
  }
}
