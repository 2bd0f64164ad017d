import { css, html, LitElement, type PropertyValues } from "lit";
import { CloseEvent } from "../lib/events.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

/** A modal dialog (native <dialog>: focus trap, Esc to close); slots: body and `footer`. */
export class GwDialog extends LitElement {
  static override properties = {
    open: { type: Boolean, reflect: true },
    heading: {},
    wide: { type: Boolean },
  };
  static override styles = [
    sharedStyles,
    css`
      dialog {
        border: 1px solid var(--gw-border);
        border-radius: var(--gw-radius-lg);
        padding: 0;
        background: var(--gw-surface);
        color: var(--gw-text);
        box-shadow: var(--gw-shadow-lg);
        width: min(520px, calc(100vw - 24px));
        max-height: calc(100vh - 48px);
        overflow: hidden;
      }
      dialog.wide {
        width: min(860px, calc(100vw - 24px));
      }
      dialog[open] {
        display: flex;
        flex-direction: column;
        animation: pop 140ms ease-out;
      }
      dialog::backdrop {
        background: var(--gw-overlay);
        backdrop-filter: blur(2px);
      }
      header {
        display: flex;
        align-items: center;
        justify-content: space-between;
        padding: var(--gw-space-4) var(--gw-space-5);
        border-bottom: 1px solid var(--gw-border);
      }
      header h2 {
        font-size: var(--gw-text-lg);
      }
      .body {
        padding: var(--gw-space-5);
        overflow: auto;
      }
      footer {
        display: flex;
        justify-content: flex-end;
        gap: var(--gw-space-2);
        padding: var(--gw-space-3) var(--gw-space-5);
        border-top: 1px solid var(--gw-border);
        background: var(--gw-surface-2);
        flex-wrap: wrap;
      }
      @keyframes pop {
        from {
          transform: translateY(6px) scale(0.98);
          opacity: 0;
        }
      }
      @media (prefers-reduced-motion: reduce) {
        dialog[open] {
          animation: none;
        }
      }
    `,
  ];
  declare open: boolean;
  declare heading: string;
  declare wide: boolean;

  constructor() {
    super();
    this.open = false;
    this.heading = "";
    this.wide = false;
  }

  override render() {
    return html`
      <dialog class=${this.wide ? "wide" : ""} aria-label=${this.heading}
        @close=${this.onNativeClose} @click=${this.onBackdrop}>
        <header><h2>${this.heading}</h2>
              <button class="icon ghost" aria-label="Close" @click=${() => this.close()}>${icon(
                "x",
              )}</button></header>
        <div class="body"><slot></slot></div>
        <footer><slot name="footer"></slot></footer>
      </dialog>
    `;
  }

  /** Closes the dialog and tells the owner. */
  close(): void {
    this.shadowRoot?.querySelector("dialog")?.close();
  }

  protected override updated(changed: PropertyValues<this>): void {
    const dialog = this.shadowRoot?.querySelector("dialog");
    if (!dialog || !changed.has("open")) return;
    if (this.open && !dialog.open) dialog.showModal();
    if (!this.open && dialog.open) dialog.close();
  }

  private onNativeClose(): void {
    if (!this.open) return;
    this.open = false;
    this.dispatchEvent(new CloseEvent());
  }

  private onBackdrop(event: MouseEvent): void {
    // A click whose target is the <dialog> itself landed on the backdrop.
    if (event.target === event.currentTarget) this.close();
  }
}
customElements.define("gw-dialog", GwDialog);

declare global {
  interface HTMLElementTagNameMap {
    "gw-dialog": GwDialog;
  }
}
