import { html, nothing } from "lit";
import type { InventorySection } from "../../../src/features/inventory/contract.ts";
import { API_BASE, call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { screenPath } from "../app/routes.ts";
import { formatInt } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { statusTone } from "./gw_inventory_keys_screen.ts";
import { ScreenBase } from "./screen_base.ts";

/** Key Inventory overview: counts by provider and status, health, and the ways keys come in and go out. */
export class GwInventoryScreen extends ScreenBase {
  static override properties = {
    ...ScreenBase.properties,
    exporting: { state: true },
    understood: { state: true },
  };
  declare exporting: boolean;
  declare understood: boolean;
  private state = new StateController(this, "inventory", 10_000);

  constructor() {
    super();
    this.exporting = false;
    this.understood = false;
  }

  override render() {
    return html`
      <gw-page-header heading="Inventory"
        description="Upstream keys: checked in the background; valid ones route as accounts of their provider's prefix.">
        <button @click=${() => this.go(screenPath("inventory-add"))}>${icon("plus")}Add keys</button>
        <button @click=${() => this.go(screenPath("inventory-import"))}>${icon(
          "inventory-import",
        )}Import JSON</button>
        <button @click=${() => ((this.exporting = true), (this.understood = false))}>${icon(
          "download",
        )}Export</button>
        <button @click=${this.recheckAll}>${icon("refresh")}Recheck all</button>
      </gw-page-header>
      ${this.frame(this.state, (d) => this.body(d))} ${this.exportDialog()}
    `;
  }

  private body(d: InventorySection) {
    const { summary } = d;
    if (summary.total === 0 && summary.archived === 0) {
      return html`
        <div class="card">
          <gw-empty icon="inventory" heading="No upstream keys in the inventory"
            text=${d.push_enabled
              ? "Add keys here, import a JSON export, or push them with POST /dashboard/api/inventory/push and the INVENTORY_PUSH_TOKEN bearer token."
              : "Add keys here or import a JSON export. Setting INVENTORY_PUSH_TOKEN also enables POST /dashboard/api/inventory/push."}>
            <button class="primary" @click=${() => this.go(screenPath("inventory-add"))}>${icon(
              "plus",
            )}Add keys</button>
          </gw-empty>
        </div>
      `;
    }
    const allKeys = (query: Record<string, string>) => this.go(screenPath("inventory-keys", query));
    return html`
      <div class="stack">
        <div class="grid-stats">
          <gw-stat label="Keys" .value=${formatInt(summary.total)}></gw-stat>
          <gw-stat label="Routable" tone="ok" .value=${formatInt(summary.routable)}></gw-stat>
          <gw-stat label="Pending" .value=${formatInt(summary.pending)}></gw-stat>
          <gw-stat label="Invalid" .tone=${summary.invalid > 0 ? "danger" : ""} .value=${formatInt(
            summary.invalid,
          )}></gw-stat>
          <gw-stat label="Errors" .tone=${summary.error > 0 ? "warn" : ""} .value=${formatInt(
            summary.error,
          )}></gw-stat>
          <gw-stat label="Archived" .value=${formatInt(summary.archived)}></gw-stat>
        </div>
        ${d.checks_pending > 0
          ? html`<p class="small muted">${formatInt(d.checks_pending)} checks queued or running.</p>`
          : nothing}
        <div class="card">
          <div class="card-head"><h2>By provider</h2></div>
          <div class="table-wrap">
            <table data-testid="inventory-providers">
              <thead><tr><th>Provider</th><th class="right">Keys</th><th class="right">Routable</th><th>Statuses</th></tr></thead>
              <tbody>${d.by_provider.map((p) =>
                html`
                  <tr>
                    <td><a href=${screenPath("inventory-keys", { provider: p.id })} @click=${(e: Event) => (
                      e.preventDefault(), allKeys({ provider: p.id })
                    )}>${p.name}</a> <span class="faint small">${p.id}</span></td>
                    <td class="right num">${formatInt(p.total)}</td>
                    <td class="right num">${formatInt(p.routable)}</td>
                    <td>${Object.entries(p.by_status).map(([s, n]) =>
                      html`<span class="badge ${statusTone(s)}" style="margin-right:4px">${s} ${n}</span>`
                    )}</td>
                  </tr>
                `
              )}</tbody>
            </table>
          </div>
        </div>
        <div class="card">
          <div class="card-head"><h2>Health</h2><span class="small muted">from credit and rate limits the checks saw</span></div>
          <div class="chips">${Object.entries(d.health).map(([h, n]) =>
            html`<span class="chip">${h}: ${formatInt(n)}</span>`
          )}</div>
        </div>
      </div>
    `;
  }

  private exportDialog() {
    return html`
      <gw-dialog .open=${this
        .exporting} heading="Export inventory" @gw-close=${() => (this.exporting = false)}>
        <div class="stack">
          <div
            class="warn-box">The JSON file holds every upstream key in plain text. Store it like a password.</div>
          <label class="check"><input type="checkbox" name="understood" .checked=${this.understood}
                @change=${(
                  e: Event,
                ) => (this.understood = (e.target as HTMLInputElement).checked)}>I understand the file
                contains plaintext keys</label>
        </div>
        <button slot="footer" @click=${() => (this.exporting = false)}>Cancel</button>
        <a slot="footer" class="btn primary" href=${`${API_BASE}/inventory/export?include_secrets=true`}
          download="gateway-inventory.json" aria-disabled=${this.understood ? "false" : "true"}
          style=${this.understood ? "" : "pointer-events:none;opacity:.5"}
          @click=${() => setTimeout(() => (this.exporting = false), 0)}>${icon("download")}Download JSON</a>
      </gw-dialog>
    `;
  }

  private readonly recheckAll = async (): Promise<void> => {
    const result = await call("POST /inventory/recheck");
    if (result.ok) this.toast(`${result.data.queued} checks queued`);
    else this.toast(result.message, "error");
    void this.state.refresh(true);
  };
}
customElements.define("gw-inventory-screen", GwInventoryScreen);
