import { css, html, LitElement } from "lit";
import { ShellActionEvent, ThemeEvent } from "../lib/events.ts";
import { icon } from "../lib/icons.ts";
import type { ThemeChoice } from "../lib/theme.ts";
import { sharedStyles } from "../styles/shared.ts";

/** The top bar: menu button (narrow screens), screen title, palette search, theme switch, sign out. */
export class GwTopbar extends LitElement {
  static override properties = { heading: {}, theme: {} };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: flex;
        align-items: center;
        gap: var(--gw-space-3);
        height: var(--gw-topbar-height);
        padding: 0 var(--gw-space-5);
        background: color-mix(in srgb, var(--gw-bg) 85%, transparent);
        backdrop-filter: blur(8px);
        border-bottom: 1px solid var(--gw-border);
        position: sticky;
        top: 0;
        z-index: 20;
      }
      .menu {
        display: none;
      }
      .title {
        font-weight: 600;
        color: var(--gw-text-muted);
        display: none;
      }
      .search {
        flex: 1;
        max-width: 420px;
        justify-content: flex-start;
        color: var(--gw-text-faint);
        font-weight: 450;
        background: var(--gw-surface);
        border-color: var(--gw-border);
      }
      .search span {
        flex: 1;
        text-align: left;
      }
      kbd {
        font-family: var(--gw-mono);
        font-size: 11px;
        border: 1px solid var(--gw-border-strong);
        padding: 0 5px;
        border-radius: 4px;
      }
      .themes {
        display: inline-flex;
        padding: 2px;
        gap: 2px;
        border: 1px solid var(--gw-border);
        border-radius: 8px;
        background: var(--gw-surface);
      }
      .themes button {
        height: 28px;
        width: 30px;
        padding: 0;
        border: none;
        background: transparent;
        color: var(--gw-text-faint);
      }
      .themes button[aria-pressed="true"] {
        background: var(--gw-accent-soft);
        color: var(--gw-accent-soft-text);
      }
      @media (max-width: 900px) {
        :host {
          padding: 0 var(--gw-space-3);
          gap: var(--gw-space-2);
        }
        .menu {
          display: inline-flex;
        }
        .title {
          display: block;
        }
        .search {
          flex: 0 0 auto;
          width: 34px;
          padding: 0;
          justify-content: center;
        }
        .search span,
        .search kbd {
          display: none;
        }
        .grow {
          flex: 1;
        }
      }
    `,
  ];
  declare heading: string;
  declare theme: ThemeChoice;

  constructor() {
    super();
    this.heading = "";
    this.theme = "system";
  }

  override render() {
    const themes: { choice: ThemeChoice; label: string; icon: "sun" | "moon" | "monitor" }[] = [
      { choice: "light", label: "Light theme", icon: "sun" },
      { choice: "dark", label: "Dark theme", icon: "moon" },
      { choice: "system", label: "System theme", icon: "monitor" },
    ];
    return html`
      <button class="icon ghost menu" aria-label="Open navigation" @click=${() =>
        this.emit("toggle-menu")}>${icon("menu", 18)}</button>
      <span class="title truncate">${this.heading}</span>
      <span class="grow"></span>
      <button class="search" aria-label="Search and commands" @click=${() => this.emit("open-palette")}>
        ${icon("search")}<span>Search screens and actions…</span><kbd>Ctrl K</kbd>
      </button>
      <span class="spacer"></span>
      <div class="themes" role="group" aria-label="Theme">
        ${themes.map((t) =>
          html`
            <button title=${t.label} aria-label=${t.label} aria-pressed=${this.theme === t.choice
              ? "true"
              : "false"}
              data-theme-choice=${t.choice}
              @click=${() => this.dispatchEvent(new ThemeEvent(t.choice))}>${icon(t.icon)}</button>
          `
        )}
      </div>
      <button class="icon ghost" title="Sign out" aria-label="Sign out" @click=${() =>
        this.emit("sign-out")}>${icon("logout")}</button>
    `;
  }

  private emit(action: "toggle-menu" | "open-palette" | "sign-out"): void {
    this.dispatchEvent(new ShellActionEvent(action));
  }
}
customElements.define("gw-topbar", GwTopbar);

declare global {
  interface HTMLElementTagNameMap {
    "gw-topbar": GwTopbar;
  }
}
