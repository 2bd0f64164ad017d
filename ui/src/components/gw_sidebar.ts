import { css, html, LitElement } from "lit";
import { NAV_GROUPS, type ScreenId, screenPath, SCREENS } from "../app/routes.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

/** Grouped navigation; plain links (deep links, middle-click) that the shell routes client-side. */
export class GwSidebar extends LitElement {
  static override properties = { current: {}, version: {} };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        height: 100%;
        background: var(--gw-surface);
        border-right: 1px solid var(--gw-border);
      }
      .brand {
        display: flex;
        align-items: center;
        gap: 10px;
        height: var(--gw-topbar-height);
        padding: 0 var(--gw-space-5);
        flex: none;
      }
      .logo {
        width: 28px;
        height: 28px;
        border-radius: 8px;
        display: grid;
        place-items: center;
        color: #fff;
        background: linear-gradient(135deg, #6366f1, #0ea5a4);
        box-shadow: var(--gw-shadow);
      }
      .brand b {
        font-size: var(--gw-text-md);
        letter-spacing: -0.01em;
      }
      .brand span {
        display: block;
        color: var(--gw-text-faint);
        font-size: var(--gw-text-xs);
        line-height: 1.1;
      }
      nav {
        overflow-y: auto;
        padding: var(--gw-space-2) var(--gw-space-3) var(--gw-space-5);
        flex: 1;
      }
      .group {
        margin-top: var(--gw-space-4);
      }
      .group-title {
        font-size: 11px;
        text-transform: uppercase;
        letter-spacing: 0.08em;
        font-weight: 650;
        color: var(--gw-text-faint);
        padding: 0 10px 6px;
      }
      a {
        display: flex;
        align-items: center;
        gap: 10px;
        padding: 7px 10px;
        border-radius: 7px;
        color: var(--gw-text-muted);
        font-weight: 520;
        font-size: var(--gw-text-md);
        text-decoration: none;
        margin: 1px 0;
      }
      a:hover {
        background: var(--gw-surface-2);
        color: var(--gw-text);
        text-decoration: none;
      }
      a[aria-current="page"] {
        background: var(--gw-accent-soft);
        color: var(--gw-accent-soft-text);
        font-weight: 600;
      }
      a svg {
        opacity: 0.85;
      }
      .foot {
        padding: var(--gw-space-3) var(--gw-space-5);
        border-top: 1px solid var(--gw-border);
        font-size: var(--gw-text-xs);
        color: var(--gw-text-faint);
        display: flex;
        justify-content: space-between;
      }
      kbd {
        font-family: var(--gw-mono);
        font-size: 11px;
        border: 1px solid var(--gw-border-strong);
        border-bottom-width: 2px;
        padding: 0 5px;
        border-radius: 4px;
        color: var(--gw-text-muted);
      }
    `,
  ];
  declare current: ScreenId;
  declare version: string;

  constructor() {
    super();
    this.current = "overview";
    this.version = "";
  }

  override render() {
    return html`
      <div class="brand">
        <div class="logo">${icon("bolt", 16)}</div>
        <div><b>Gateway</b><span>Dashboard${this.version ? ` · v${this.version}` : ""}</span></div>
      </div>
      <nav aria-label="Main">
        ${NAV_GROUPS.map((group) =>
          html`<div class="group">
          <div class="group-title">${group}</div>
          ${
            SCREENS.filter((s) => s.group === group).map((s) =>
              html`<a href=${screenPath(s.id)} aria-current=${s.id === this.current ? "page" : "false"}>${
                icon(s.id)
              }${s.title}</a>`
            )
          }
        </div>`
        )}
      </nav>
      <div class="foot"><span>Command palette</span><span><kbd>Ctrl</kbd> <kbd>K</kbd></span></div>
    `;
  }
}
customElements.define("gw-sidebar", GwSidebar);

declare global {
  interface HTMLElementTagNameMap {
    "gw-sidebar": GwSidebar;
  }
}
