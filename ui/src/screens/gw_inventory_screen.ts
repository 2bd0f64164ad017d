import { html } from "lit";
import type { InventorySection } from "../../../src/dashboard/contract/mod.ts";
import { StateController } from "../api/state_controller.ts";
import { formatAgo, formatInt } from "../lib/format.ts";
import { ScreenBase } from "./screen_base.ts";

/** Key Inventory (minimal): summary of pushed upstream keys, per-provider counts and the key list. */
export class GwInventoryScreen extends ScreenBase {
  private state = new StateController(this, "inventory", 15_000);
  private keys = new StateController(this, "inventory-keys", 15_000);

  override render() {
    return html`
      <gw-page-header heading="Inventory"
        description="Upstream keys pushed to the gateway and their status."></gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))}
    `;
  }

  private body(d: InventorySection) {
    const { summary, by_provider: providers } = d;
    const keys = this.keys.data?.keys ?? [];
    const status = (s: string) =>
      s === "active" ? "ok" : s === "invalid" ? "danger" : s.startsWith("pending") ? "warn" : "";
    if (summary.total === 0) {
      return html`
        <div class="card">
          <gw-empty icon="inventory" heading="No upstream keys in the inventory"
            text=${d.push_enabled
              ? "Push keys with POST /dashboard/api/inventory/push and the INVENTORY_PUSH_TOKEN bearer token; they are validated and listed here."
              : "Set INVENTORY_PUSH_TOKEN in the gateway's environment to enable POST /dashboard/api/inventory/push, then push upstream keys."}></gw-empty>
        </div>
      `;
    }
    return html`
      <div class="stack">
        <div class="grid-stats">
          <gw-stat label="Keys" .value=${formatInt(summary.total)}></gw-stat>
          <gw-stat label="Active" tone="ok" .value=${formatInt(summary.active)}></gw-stat>
          <gw-stat label="Pending" .value=${formatInt(summary.pending)}></gw-stat>
          <gw-stat label="Invalid" .tone=${summary.invalid > 0 ? "danger" : ""} .value=${formatInt(
            summary.invalid,
          )}></gw-stat>
          <gw-stat label="Providers" .value=${formatInt(summary.providers)}></gw-stat>
        </div>
        <div class="card">
          <div class="card-head">
            <h2>Providers</h2>
          </div>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Provider</th>
                  <th class="right">Keys</th>
                </tr>
              </thead>
              <tbody>${providers.map((p) =>
                html`
                  <tr>
                    <td>${p.name || p.id}</td>
                    <td class="right num">${formatInt(p.total)}</td>
                  </tr>
                `
              )}</tbody>
            </table>
          </div>
        </div>
        <div class="card">
          <div class="card-head"><h2>All keys</h2><span class="small muted">${formatInt(
            this.keys.data?.total ?? 0,
          )} total</span></div>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Key</th>
                  <th>Provider</th>
                  <th>Label</th>
                  <th>Status</th>
                  <th class="right">Priority</th>
                  <th>Last checked</th>
                  <th>Last error</th>
                </tr>
              </thead>
              <tbody>${keys.map((k) =>
                html`
                  <tr>
                    <td class="mono small">${k.masked}</td>
                    <td>${k.provider_id}</td>
                    <td>${k.label || "–"}</td>
                    <td><span class="badge ${status(k.status)}">${k.status}</span></td>
                    <td class="right num">${k.priority || "–"}</td>
                    <td class="small muted">${k.last_checked_at ? formatAgo(k.last_checked_at) : "never"}</td>
                    <td class="small">${k.last_error || html`<span class="faint">–</span>`}</td>
                  </tr>
                `
              )}</tbody>
            </table>
          </div>
        </div>
      </div>
    `;
  }
}
customElements.define("gw-inventory-screen", GwInventoryScreen);
