import { css, html, nothing } from "lit";
import type { RoutingAccount, RoutingSection } from "../../../src/features/routing/contract.ts";
import { call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

/**
 * Routing: per-prefix accounts with readiness, headroom bars per limit window and why an account goes
 * last, the try order the next request would get, active cooldowns counting down, clear all.
 */
export class GwRoutingScreen extends ScreenBase {
  static override properties = { clearing: { state: true } };
  static override styles = [
    sharedStyles,
    css`
      .facts {
        display: flex;
        gap: var(--gw-space-2);
        flex-wrap: wrap;
        margin-bottom: var(--gw-space-4);
      }
      .account {
        display: flex;
        align-items: center;
        gap: 10px;
        padding: 8px 0;
        border-bottom: 1px solid var(--gw-border);
        font-size: var(--gw-text-sm);
        flex-wrap: wrap;
      }
      .account:last-child {
        border-bottom: none;
      }
      .order {
        width: 22px;
        height: 22px;
        border-radius: 50%;
        display: grid;
        place-items: center;
        font-size: 11px;
        font-weight: 700;
        background: var(--gw-surface-3);
        flex: none;
      }
      .account .id {
        font-family: var(--gw-mono);
        flex: 1;
        min-width: 120px;
        overflow-wrap: anywhere;
      }
    `,
  ];
  declare clearing: boolean;
  private state = new StateController(this, "routing", 10_000);

  constructor() {
    super();
    this.clearing = false;
  }

  override render() {
    const cooldowns = this.state.data?.cooldowns ?? [];
    return html`
      <gw-page-header heading="Routing"
        description="Which accounts serve each prefix, in what order, and which are resting.">
        <button class="primary" ?disabled=${this.clearing || cooldowns.length === 0} @click=${this
          .clear}>${icon("refresh")}Clear all cooldowns</button>
      </gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))}
    `;
  }

  private body(d: RoutingSection) {
    const { prefixes, cooldowns } = d;
    return html`
      <div class="facts">
        <span class="badge ${d.cooldowns_enabled ? "ok" : "warn"}">cooldowns ${d.cooldowns_enabled
          ? "on"
          : "off"}</span>
        <span class="badge accent">combo strategy: ${d.combo_strategy || "fallback"}</span>
        <span class="badge">account strategy: ${d.account_strategy || "ordered"}</span>
      </div>
            <div class="stack">
              <div class="card">
                <div class="card-head"><h2>Active cooldowns</h2><span class="small muted">${cooldowns
                  .length} account(s)</span></div>
                ${cooldowns.length === 0
                  ? html`<div class="card-body muted small">No account is cooling down: every enabled account is tried.</div>`
                  : html`
                    <div class="table-wrap">
                      <table data-testid="cooldowns">
                        <thead>
                          <tr>
                            <th>Account</th>
                            <th>Reason</th>
                            <th>Remaining</th>
                            <th></th>
                          </tr>
                        </thead>
                        <tbody>${cooldowns.map((c) =>
                          html`
                            <tr>
                              <td class="mono">${c.account_id}</td>
                              <td>${c.kind || "error"}</td>
                              <td>
                                <gw-countdown .until=${Date.now() +
                                  c.remaining_s * 1000} @gw-value=${() =>
                                  this.state.refresh(true)}></gw-countdown>
                              </td>
                              <td>
                                <button class="small" data-testid="clear-${c.account_id}" ?disabled=${this
                                  .clearing}
                                  @click=${() => this.clearOne(c.account_id)}>Clear</button>
                              </td>
                            </tr>
                          `
                        )}</tbody>
                      </table>
                    </div>
                  `}
              </div>
              ${prefixes.length === 0
                ? html`
                  <div class="card">
                    <gw-empty icon="routing" heading="Nothing to route yet"
                      text="Add a provider and its prefix shows up here with its accounts in try order.">
                              <a class="btn primary" href="/dashboard/ui/providers?action=create">Add a provider</a></gw-empty>
                  </div>
                `
                : html`<div class="grid-cards">${
                  prefixes.map((p) => {
                    const { accounts } = p;
                    const ready = accounts.filter((a) => a.ready).length;
                    return html`
                      <div class="card">
                        <div class="card-head"><h3 class="mono">${p.prefix}/*</h3>
                                    <span class="badge ${ready > 0 ? "ok" : "danger"}">${ready}/${accounts
                                      .length} ready</span></div>
                        <div class="card-body">${accounts.map((a) => {
                          const cd = a.cooldown;
                          return html`<div class="account"><span class="order">${a.order}</span><span class="id">${a.id}</span>
                  <span class="faint small">${a.api_type}</span>
                  ${
                            !a.enabled
                              ? html`<span class="badge">disabled</span>`
                              : cd && cd.remaining_s > 0
                              ? html`<span class="badge warn">cooling <gw-countdown .until=${
                                Date.now() + cd.remaining_s * 1000
                              }></gw-countdown></span>`
                              : a.quota?.deprioritised
                              ? html`<span class="badge warn">deprioritised</span>`
                              : a.ready
                              ? html`<span class="badge ok">ready</span>`
                              : html`<span class="badge danger">not ready</span>`
                          }${credentialBadge(a.credential_state)}${
                            a.cache_sessions > 0
                              ? html`<span class="badge" title="conversations whose prompt cache this account holds">${a.cache_sessions} cached</span>`
                              : nothing
                          }<gw-quota-bars .quota=${a.quota}></gw-quota-bars></div>`;
                        })}</div>
                        <div class="card-body small muted"
                          data-testid="try-order">Next request tries: <span class="mono">${p
                              .try_order.length > 0
                            ? p.try_order.join(" → ")
                            : "nothing (every account is cooling or disabled)"}</span></div>
                      </div>
                    `;
                  })
                }</div>`}
            </div>${nothing}
    `;
  }

  private readonly clearOne = async (accountId: string): Promise<void> => {
    this.clearing = true;
    const result = await call("POST /routing/accounts/:id/clear-cooldown", { params: { id: accountId } });
    this.clearing = false;
    if (!result.ok) this.toast(result.message, "error");
    else if (result.data.cleared) this.toast(`Cleared ${accountId}'s cooldown`);
    else this.toast(`${accountId} was no longer cooling down`);
    await this.state.refresh();
  };

  private readonly clear = async (): Promise<void> => {
    this.clearing = true;
    const result = await call("POST /routing/clear-cooldowns");
    this.clearing = false;
    if (result.ok) this.toast(`Cleared ${result.data.cleared} cooldown(s)`);
    else this.toast(result.message, "error");
    await this.state.refresh();
  };
}
customElements.define("gw-routing-screen", GwRoutingScreen);

/** The credential state of a subscription account, worded for the Routing screen. */
function credentialBadge(state: RoutingAccount["credential_state"]) {
  switch (state) {
    case "valid":
      return html`<span class="badge ok" data-credential="valid">credential valid</span>`;
    case "expiring":
      return html`<span class="badge warn" data-credential="expiring">credential expiring</span>`;
    case "refresh_failed":
      return html`<span class="badge danger" data-credential="refresh_failed">refresh failed</span>`;
    case "needs_sign_in":
      return html`<span class="badge danger" data-credential="needs_sign_in">needs sign-in</span>`;
    default:
      return nothing;
  }
}
