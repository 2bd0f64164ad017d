import { html, LitElement } from "lit";
import { ToastEvent } from "../lib/events.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

/** Copies `text` to the clipboard and confirms with a check mark. */
export class GwCopyButton extends LitElement {
  static override properties = { text: {}, label: {}, copied: { state: true } };
  static override styles = [sharedStyles];
  declare text: string;
  declare label: string;
  declare copied: boolean;

  constructor() {
    super();
    this.text = "";
    this.label = "Copy";
    this.copied = false;
  }

  override render() {
    return html`<button class="sm" @click=${this.copy} aria-label=${this.label}>
      ${icon(this.copied ? "check" : "copy", 14)}${this.copied ? "Copied" : this.label}
    </button>`;
  }

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.text);
    } catch {
      // Clipboard API needs a secure context; fall back to a hidden textarea.
      const area = document.createElement("textarea");
      area.value = this.text;
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.append(area);
      area.select();
      const ok = document.execCommand("copy");
      area.remove();
      if (!ok) {
        this.dispatchEvent(new ToastEvent("Copy failed: select the text and copy it manually", "error"));
        return;
      }
    }
    this.copied = true;
    setTimeout(() => (this.copied = false), 1600);
  }
}
customElements.define("gw-copy-button", GwCopyButton);

declare global {
  interface HTMLElementTagNameMap {
    "gw-copy-button": GwCopyButton;
  }
}
