import { css, html, LitElement, nothing } from "lit";
import type { CredentialView, ProviderView } from "../../../src/features/providers/contract.ts";
import { apiTypeLabel } from "../lib/api_types.ts";
import { type ProviderAction, ProviderActionEvent } from "../lib/events.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

/** Outcome of Test Connection as a card shows it: running, or a line of text that passed or failed. */
export type ProviderTest = { readonly ok: boolean; readonly text: string } | "running" | undefined;

/** One provider as a card: facts, its last connection test, and buttons that ask the screen to act. */
export class GwProviderCard extends LitElement {
  static override properties = { provider: { attribute: false }, test: { attribute: false } };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .card {
        height: 100%;
        display: flex;
        flex-direction: column;
      }
      .card-body {
        flex: 1;
        display: flex;
        flex-direction: column;
        gap: 10px;
      }
      h3 {
        font-family: var(--gw-mono);
        font-size: var(--gw-text-md);
        overflow-wrap: anywhere;
      }
      .actions {
        display: flex;
        gap: 6px;
        flex-wrap: wrap;
        align-items: center;
      }
      .result {
        font-size: var(--gw-text-sm);
        padding: 8px 10px;
        border-radius: var(--gw-radius-sm);
      }
      .result.ok {
        background: var(--gw-ok-soft);
        color: var(--gw-ok);
      }
      .result.bad {
        background: var(--gw-danger-soft);
        color: var(--gw-danger);
      }
      .disabled {
        opacity: 0.72;
      }
    `,
  ];
  declare provider: ProviderView | undefined;
  declare test: ProviderTest;

  constructor() {
    super();
    this.provider = undefined;
    this.test = undefined;
  }

  override render() {
    const p = this.provider;
    if (!p) return nothing;
    const test = this.test;
    const cooldown = p.cooldown?.remaining_s ?? 0;
    return html`
      <div class="card ${p.enabled ? "" : "disabled"}">
        <div class="card-head">
          <h3>${p.id}</h3>
          <div class="row">
            ${cooldown > 0
              ? html`<span class="badge warn">cooling <gw-countdown .until=${
                Date.now() + cooldown * 1000
              }></gw-countdown></span>`
              : nothing}
            ${p.enabled
              ? html`<span class="badge ok"><span class="dot"></span>enabled</span>`
              : html`<span class="badge">disabled</span>`}
          </div>
        </div>
        <div class="card-body">
          <dl class="facts">
            <dt>Prefix</dt><dd><span class="chip">${p.prefix}</span></dd>
            <dt>Type</dt><dd>${apiTypeLabel(p.api_type)}</dd>
            <dt>Base URL</dt><dd class="mono small">${p.base_url ||
              html`<span class="faint">default</span>`}</dd>
            <dt>Key</dt><dd class="mono small">${p.api_key_masked || html`<span class="faint">–</span>`}</dd>
            <dt>Models</dt><dd>${this.models(p.models)}</dd>
            ${p.credential
              ? html`
                <dt>Sign-in</dt>
                <dd class="small">${this.credential(p.credential)}</dd>
              `
              : nothing}
          </dl>
          ${test === "running"
            ? html`<div class="result muted">Testing connection…</div>`
            : test
            ? html`<div class="result ${test.ok ? "ok" : "bad"}" role="status">${test.text}</div>`
            : nothing}
        </div>
        <div class="card-foot actions">
          <button class="sm" @click=${() => this.ask("test")} ?disabled=${test === "running"}>${icon(
            "play",
            14,
          )}Test</button>
          ${p.signin_flows.length > 0
            ? html`<button class="sm" @click=${() => this.ask("connect")}>${icon("keys", 14)}Connect</button>`
            : nothing}
          <button class="sm" @click=${() => this.ask("edit")}>${icon("edit", 14)}Edit</button>
          <button class="sm" @click=${() => this.ask("toggle")}>${p.enabled ? "Disable" : "Enable"}</button>
          <span class="spacer"></span>
          <button class="sm ghost danger" aria-label="Delete ${p.id}" @click=${() =>
            this.ask("delete")}>${icon("trash", 14)}</button>
        </div>
      </div>
    `;
  }

  /** A subscription credential's status: account, expiry and refresh, and the last refresh error. */
  private credential(c: CredentialView) {
    const when = (ms: number) => new Date(ms).toLocaleString();
    const facts = [
      c.account ?? (c.kind === "unreadable" ? "unreadable credential" : "account not named"),
      c.expires_at !== null ? `expires ${when(c.expires_at * 1000)}` : c.refreshable ? "" : "no expiry",
      c.refreshable ? "refreshed automatically" : "no refresh token",
      c.last_refresh_at !== null ? `last refresh ${when(c.last_refresh_at)}` : "",
    ].filter((f) => f !== "");
    return html`<span data-credential>${facts.join(" · ")}</span>${
      c.last_error ? html`<div class="result bad" role="alert">${c.last_error}</div>` : nothing
    }`;
  }

  private models(models: readonly string[]) {
    if (models.length === 0) return html`<span class="faint small">none listed</span>`;
    return html`<div class="chips">${models.slice(0, 6).map((m) => html`<span class="chip">${m}</span>`)}${
      models.length > 6 ? html`<span class="faint small">+${models.length - 6} more</span>` : nothing
    }</div>`;
  }

  private ask(action: ProviderAction): void {
    if (this.provider) this.dispatchEvent(new ProviderActionEvent(action, this.provider));
  }
}
customElements.define("gw-provider-card", GwProviderCard);

declare global {
  interface HTMLElementTagNameMap {
    "gw-provider-card": GwProviderCard;
  }
}
