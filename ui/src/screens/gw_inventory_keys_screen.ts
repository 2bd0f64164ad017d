import { html, nothing } from "lit";
import type {
  InventoryKeyDetail,
  InventoryKeysSection,
  InventoryKeyView,
} from "../../../src/features/inventory/contract.ts";
import { call } from "../api/client.ts";
import { page, QueryController, text } from "../api/query_controller.ts";
import { StateController } from "../api/state_controller.ts";
import type { ValueEvent } from "../lib/events.ts";
import { formatAgo, formatDateTime } from "../lib/format.ts";
import { inputValue as value } from "../lib/form.ts";
import { icon } from "../lib/icons.ts";
import { ScreenBase } from "./screen_base.ts";

const LIMIT = 50;

/** The badge tone of a key status. */
export function statusTone(status: string): string {
  if (status === "active") return "ok";
  if (status === "invalid" || status === "revoked" || status === "daily_exhausted") return "danger";
  if (status === "error" || status === "unidentified") return "warn";
  return "";
}

/** All Keys: search and filter the inventory, recheck, archive or restore, delete, see a key's history and models. */
export class GwInventoryKeysScreen extends ScreenBase {
  static override properties = {
    ...ScreenBase.properties,
    detail: { state: true },
    deleting: { state: true },
  };
  declare detail: InventoryKeyDetail | null;
  declare deleting: InventoryKeyView | null;
  private query = new QueryController(this, {
    search: text,
    provider: text,
    status: text,
    archived: (raw): string => (raw === "true" ? "true" : "false"),
    page,
  }, { limit: LIMIT });
  private state = new StateController(this, "inventory-keys", 15_000, this.query);
  private overview = new StateController(this, "inventory");
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.detail = null;
    this.deleting = null;
  }

  override render() {
    return html`
      <gw-page-header heading="All Keys" description="Every upstream key in the inventory, masked.">
        <button @click=${this.recheckAll}>${icon("refresh")}Recheck all</button>
      </gw-page-header>
      ${this.filterBar()} ${this.frame(this.state, (d) => this.table(d))} ${this.detailDialog()} ${this
        .deleteDialog()}
    `;
  }

  private filterBar() {
    const o = this.overview.data;
    const f = this.query.value;
    return html`
      <div class="card toolbar" style="margin-bottom:12px;display:flex;gap:8px;flex-wrap:wrap;align-items:end">
        <gw-field label="Search"><input name="search" type="search" .value=${f.search}
          placeholder="label, masked key, id" @input=${this.onSearch}></gw-field>
        <gw-field label="Provider"><select name="provider" .value=${f.provider} @change=${(e: Event) =>
          this.setFilter({ provider: value(e) })}>
          <option value="">All providers</option>
          ${(o?.by_provider ?? []).map((p) =>
            html`<option value=${p.id} ?selected=${p.id === f.provider}>${p.name}</option>`
          )}
        </select></gw-field>
        <gw-field label="Status"><select name="status" .value=${f.status} @change=${(e: Event) =>
          this.setFilter({ status: value(e) })}>
          <option value="">All statuses</option>
          ${(o?.statuses ?? []).map((s) =>
            html`<option value=${s} ?selected=${s === f.status}>${s}</option>`
          )}
        </select></gw-field>
        <label class="check"><input type="checkbox" class="switch" name="archived" .checked=${f.archived ===
          "true"}
          @change=${(e: Event) =>
            this.setFilter({ archived: String((e.target as HTMLInputElement).checked) })}>Archived</label>
      </div>
    `;
  }

  private table(d: InventoryKeysSection) {
    if (d.keys.length === 0) {
      return html`
        <div class="card">
          <gw-empty icon="inventory-keys" heading="No keys match"
            text="Change the filters, or add keys on the Add Keys screen."></gw-empty>
        </div>
      `;
    }
    return html`
      <div class="card">
        <div class="table-wrap">
          <table data-testid="inventory-keys">
            <thead>
              <tr>
                <th>Key</th>
                <th>Provider</th>
                <th>Label</th>
                <th>Status</th>
                <th>Usability</th>
                <th>Health</th>
                <th>Last checked</th>
                <th>Last error</th>
                <th></th>
              </tr>
            </thead>
            <tbody>${d.keys.map((k) => this.row(k))}</tbody>
          </table>
        </div>
        <gw-pager .total=${d.total} .limit=${d.limit} .offset=${(d.page - 1) * d.limit} @gw-value=${this
          .onPage}></gw-pager>
      </div>
    `;
  }

  private row(k: InventoryKeyView) {
    return html`
      <tr data-key=${k.id}>
        <td class="mono small nowrap">${k.masked}</td>
        <td>${k.provider_id}</td>
        <td>${k.label || html`<span class="faint">–</span>`}</td>
        <td><span class="badge ${statusTone(k.status)}">${k.status}</span>${k.routable
          ? html`
            <span class="badge info">routable</span>
          `
          : nothing}</td>
        <td class="small">${k.usability}</td>
        <td class="small">${k.health}</td>
        <td class="small muted nowrap">${k.last_checked_at ? formatAgo(k.last_checked_at) : "never"}</td>
        <td class="small">${k.last_error || html`<span class="faint">–</span>`}</td>
        <td class="right nowrap">
          <button class="sm ghost" @click=${() => this.open(k)}>Details</button>
          <button class="sm ghost" @click=${() => this.act(k, "recheck", "Check queued")}>Recheck</button>
          ${k.archived
            ? html`<button class="sm ghost" @click=${() =>
              this.act(k, "restore", "Restored")}>Restore</button>`
            : html`<button class="sm ghost" @click=${() =>
              this.act(k, "archive", "Archived")}>Archive</button>`}
          <button class="sm ghost danger" @click=${() => (this.deleting = k)}>Delete</button>
        </td>
      </tr>
    `;
  }

  private detailDialog() {
    const d = this.detail;
    return html`
      <gw-dialog wide .open=${d !== null} heading=${d ? `Key ${d.key.masked}` : ""}
        @gw-close=${() => (this.detail = null)}>
            ${d
              ? html`
                <div class="stack">
                  <p class="small">${d.key.provider_id} · ${d.key.status} · ${d.key
                    .usability}${d.key.usability_note
                    ? ` (${d.key.usability_note})`
                    : ""}${d.key.rate_limit_rpm !== null
                    ? ` · ${d.key.rate_limit_rpm} rpm`
                    : ""}${d.key.credits_remaining !== null
                    ? ` · ${d.key.credits_remaining} credit left`
                    : ""}</p>
                  <h3>Models (${d.models.length})</h3>
                  <div class="chips">${d.models.map((m) => html`<span class="chip">${m}</span>`)}</div>
                  <h3>History</h3>
                  <table>
                    <tbody>${d.history.map((h) =>
                      html`
                        <tr>
                          <td class="small nowrap">${formatDateTime(h.changed_at)}</td>
                          <td class="small">${h.previous_status || "–"} → ${h.new_status}</td>
                          <td class="small">${h.notes}</td>
                        </tr>
                      `
                    )}</tbody>
                  </table>
                </div>
              `
              : nothing}
          </gw-dialog>
    `;
  }

  private deleteDialog() {
    const k = this.deleting;
    return html`
      <gw-dialog .open=${k !== null} heading="Delete key?" @gw-close=${() => (this.deleting = null)}>
        <p>${k?.masked}: its history and models go too. Archive keeps them and can be undone.</p>
        <button slot="footer" @click=${() => (this.deleting = null)}>Cancel</button>
        <button slot="footer" class="danger" @click=${this.confirmDelete}>Delete</button>
      </gw-dialog>
    `;
  }

  /** Changes filters; any change but paging goes back to the first page. */
  private setFilter(change: Partial<typeof this.query.value>): void {
    this.query.set({ ...change, page: change.page ?? 1 });
  }

  private readonly onSearch = (e: Event): void => {
    const text = value(e);
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.setFilter({ search: text }), 250);
  };

  private readonly onPage = (e: ValueEvent<unknown>): void => {
    this.setFilter({ page: Math.floor(Number(e.value) / LIMIT) + 1 });
  };

  private async open(k: InventoryKeyView): Promise<void> {
    const result = await call("GET /inventory/keys/:id", { params: { id: k.id } });
    if (result.ok) this.detail = result.data;
    else this.toast(result.message, "error");
  }

  private async act(
    k: InventoryKeyView,
    action: "recheck" | "archive" | "restore",
    done: string,
  ): Promise<void> {
    const result = await call(`POST /inventory/keys/:id/${action}`, { params: { id: k.id } });
    if (!result.ok) return this.toast(result.message, "error");
    this.toast(done);
    void this.state.refresh(true);
  }

  private readonly recheckAll = async (): Promise<void> => {
    const result = await call("POST /inventory/recheck");
    if (result.ok) this.toast(`${result.data.queued} checks queued`);
    else this.toast(result.message, "error");
  };

  private readonly confirmDelete = async (): Promise<void> => {
    const k = this.deleting;
    if (k === null) return;
    const result = await call("DELETE /inventory/keys/:id", { params: { id: k.id } });
    this.deleting = null;
    if (!result.ok) return this.toast(result.message, "error");
    this.toast("Deleted");
    void this.state.refresh(true);
  };
}
customElements.define("gw-inventory-keys-screen", GwInventoryKeysScreen);
