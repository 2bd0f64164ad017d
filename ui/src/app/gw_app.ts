import { html, LitElement, nothing, type TemplateResult } from "lit";
import { html as staticHtml, unsafeStatic } from "lit/static-html.js";
import { API_BASE, call } from "../api/client.ts";
import type { GwPalette } from "../components/gw_palette.ts";
import type { GwToasts } from "../components/gw_toasts.ts";
import { NavigateEvent, ShellActionEvent, ThemeEvent, ToastEvent, ValueEvent } from "../lib/events.ts";
import { VIEWER_REASON } from "../lib/read_only.ts";
import { nextTheme, setTheme, storedTheme, type ThemeChoice } from "../lib/theme.ts";
import { sharedStyles } from "../styles/shared.ts";
import { appStyles } from "./app_styles.ts";
import { PALETTE_COMMANDS } from "./palette_commands.ts";
import {
  type AppLocation,
  parseLocation,
  type ScreenId,
  screenInfo,
  screenPath,
  screenTag,
  UI_BASE,
} from "./routes.ts";

/** The application shell: sidebar, top bar, router outlet, command palette, toasts and theme. */
export class GwApp extends LitElement {
  static override properties = {
    location: { state: true },
    theme: { state: true },
    menuOpen: { state: true },
    paletteOpen: { state: true },
    readOnly: { state: true },
  };
  static override styles = [
    sharedStyles,
    appStyles,
  ];
  declare location: AppLocation | null;
  declare theme: ThemeChoice;
  declare menuOpen: boolean;
  declare paletteOpen: boolean;
  /** Why this account cannot change anything ("" for an administrator, or until /me answered). */
  declare readOnly: string;

  constructor() {
    super();
    this.location = parseLocation(location.pathname, location.search);
    this.theme = storedTheme();
    this.menuOpen = false;
    this.paletteOpen = false;
    this.addEventListener(NavigateEvent.type, (e) => this.navigate(e.path));
    this.addEventListener(ToastEvent.type, (e) => this.toast(e.message, e.kind));
    this.addEventListener(ThemeEvent.type, (e) => this.pickTheme(e.choice));
    this.addEventListener(ShellActionEvent.type, (e) => this.onShellAction(e.action));
    this.addEventListener("click", (e) => this.interceptLink(e));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener("popstate", this.onPopState);
    addEventListener("keydown", this.onKeyDown);
    this.updateTitle();
    void this.loadRole();
  }

  /** A viewer gets a read-only dashboard: the banner says so and the screens disable their controls. */
  private async loadRole(): Promise<void> {
    const me = await fetch("/dashboard/api/me", { credentials: "same-origin" })
      .then((r) => r.ok ? r.json() as Promise<{ role?: string }> : null)
      .catch(() => null);
    this.readOnly = me?.role === "viewer" ? VIEWER_REASON : "";
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener("popstate", this.onPopState);
    removeEventListener("keydown", this.onKeyDown);
  }

  override render() {
    const current = this.location?.screen ?? "overview";
    return html`
      <div class="layout ${this.menuOpen ? "menu-open" : ""}">
        <div class="side">
          <gw-sidebar .current=${current}></gw-sidebar>
        </div>
        <div class="scrim" @click=${() => (this.menuOpen = false)}></div>
        <div>
          <gw-topbar .heading=${this.location ? screenInfo(current).title : "Not found"} .theme=${this
            .theme}></gw-topbar>
          <main id="main">${this.readOnly
            ? html`<div class="card read-only-banner" data-read-only role="note">${this.readOnly}</div>`
            : nothing}${this.location ? this.screen(this.location) : this.notFound()}</main>
        </div>
      </div>
      <gw-palette .open=${this.paletteOpen} .commands=${PALETTE_COMMANDS}
        @gw-value=${this.onPaletteChoice} @gw-close=${() => (this.paletteOpen = false)}></gw-palette>
      <gw-toasts></gw-toasts>
    `;
  }

  /** Renders the element of one screen (`gw-<id>-screen`, named by the shared screen list). */
  private screen(loc: AppLocation): TemplateResult {
    const tag = unsafeStatic(screenTag(loc.screen));
    return staticHtml`<${tag} .params=${loc.params} .readOnly=${this.readOnly}></${tag}>`;
  }

  private notFound(): TemplateResult {
    return html`
      <div class="card not-found">
        <gw-empty icon="search" heading="No such screen"
          text="This address does not match any dashboard screen. Use the sidebar or press Ctrl+K to find one.">
            <a class="btn primary" href=${UI_BASE}>Go to Overview</a></gw-empty>
      </div>
    `;
  }

  /** Moves to an in-app path without reloading. */
  navigate(path: string, replace = false): void {
    const url = new URL(path, location.origin);
    const target = url.pathname + url.search;
    if (replace) history.replaceState(null, "", target);
    else if (target !== location.pathname + location.search) history.pushState(null, "", target);
    this.location = parseLocation(url.pathname, url.search);
    this.menuOpen = false;
    this.updateTitle();
    if (!replace) scrollTo({ top: 0 });
  }

  private readonly onPopState = (): void => {
    this.location = parseLocation(location.pathname, location.search);
    this.updateTitle();
  };

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    const mod = event.ctrlKey || event.metaKey;
    if (mod && event.key.toLowerCase() === "k") {
      event.preventDefault();
      this.paletteOpen = !this.paletteOpen;
      return;
    }
    if (event.key === "/" && !mod && !event.altKey && !isTyping(event) && !this.paletteOpen) {
      event.preventDefault();
      this.paletteOpen = true;
    }
    if (event.key === "Escape" && this.menuOpen) this.menuOpen = false;
  };

  private interceptLink(event: MouseEvent): void {
    if (
      event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    const anchor = event.composedPath().find((n): n is HTMLAnchorElement => n instanceof HTMLAnchorElement);
    if (!anchor || anchor.target || anchor.hasAttribute("download")) return;
    const url = new URL(anchor.href, location.href);
    if (
      url.origin !== location.origin || !(url.pathname === UI_BASE || url.pathname.startsWith(`${UI_BASE}/`))
    ) return;
    event.preventDefault();
    this.navigate(url.pathname + url.search);
  }

  private onPaletteChoice(event: ValueEvent<unknown>): void {
    event.stopPropagation();
    this.paletteOpen = false;
    const id = String(event.value);
    if (id.startsWith("go:")) {
      this.navigate(screenPath(id.slice(3) as ScreenId));
      return;
    }
    void this.runAction(id);
  }

  private async runAction(id: string): Promise<void> {
    switch (id) {
      case "create-key":
        return this.navigate(screenPath("keys", { action: "create" }));
      case "create-provider":
        return this.navigate(screenPath("providers", { action: "create" }));
      case "create-combo":
        return this.navigate(screenPath("combos", { action: "create" }));
      case "create-budget":
        return this.navigate(screenPath("budgets", { action: "create" }));
      case "add-price":
        return this.navigate(screenPath("pricing", { action: "create" }));
      case "export-config":
        return this.navigate(screenPath("settings", { action: "export" }));
      case "export-logs":
        return download(`${API_BASE}/request-logs/export`);
      case "clear-cooldowns": {
        const result = await call("POST /routing/clear-cooldowns");
        if (result.ok) {
          this.toast(`Cleared ${result.data.cleared} cooldown(s)`, "success");
          if (this.location?.screen === "routing") {
            this.navigate(screenPath("routing", { refreshed: String(Date.now()) }), true);
          }
        } else this.toast(`Could not clear cooldowns: ${result.message}`, "error");
        return;
      }
      case "toggle-theme":
        return this.pickTheme(nextTheme(this.theme));
      case "theme-light":
      case "theme-dark":
      case "theme-system":
        return this.pickTheme(id.slice(6) as ThemeChoice);
      case "sign-out":
        return this.signOut();
    }
  }

  private onShellAction(action: ShellActionEvent["action"]): void {
    switch (action) {
      case "toggle-menu":
        this.menuOpen = !this.menuOpen;
        return;
      case "open-palette":
        this.paletteOpen = true;
        return;
      case "sign-out":
        void this.signOut();
        return;
    }
  }

  private async signOut(): Promise<void> {
    await fetch("/dashboard/logout", {
      method: "POST",
      credentials: "same-origin",
      headers: { accept: "application/json" },
    }).catch(() => {});
    location.assign("/dashboard/login");
  }

  private pickTheme(choice: ThemeChoice): void {
    setTheme(choice);
    this.theme = choice;
    this.toast(`Theme: ${choice}`, "info");
  }

  private toast(message: string, kind: ToastEvent["kind"]): void {
    this.renderRoot.querySelector<GwToasts>("gw-toasts")?.show(message, kind);
  }

  private updateTitle(): void {
    document.title = `${this.location ? screenInfo(this.location.screen).title : "Not found"} · Gateway`;
  }

  /** The palette element (tests and screens never need it; kept for focus handling). */
  get palette(): GwPalette | null {
    return this.renderRoot.querySelector("gw-palette");
  }
}

function isTyping(event: KeyboardEvent): boolean {
  const target = event.composedPath()[0];
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function download(url: string): void {
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  document.body.append(a);
  a.click();
  a.remove();
}

customElements.define("gw-app", GwApp);

declare global {
  interface HTMLElementTagNameMap {
    "gw-app": GwApp;
  }
}
