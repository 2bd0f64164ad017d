import { html, nothing } from "lit";
import type { AuditEntryView } from "../../../src/features/audit/contract.ts";
import { API_BASE, call } from "../api/client.ts";
import { QueryController, text } from "../api/query_controller.ts";
import { formatDateTime } from "../lib/format.ts";
import { inputValue as value } from "../lib/form.ts";
import { icon } from "../lib/icons.ts";
import { ScreenBase } from "./screen_base.ts";

const LIMIT = 200;

/** `2026-11-28T09:00` (a datetime-local input's value, local time) as epoch ms; "" stays "". */
function localTime(raw: string): string {
  const ms = raw === "" ? NaN : new Date(raw).getTime();
  return Number.isFinite(ms) ? String(ms) : "";
}

/** A row's before or after JSON for the detail view (null when absent, the text when it is not JSON). */
function parsed(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** Audit Log: every management change and sign-in, filtered by actor, action, target and time; export. */
export class GwAuditScreen extends ScreenBase {
  static override properties = {
    ...ScreenBase.properties,
    entries: { state: true },
    error: { state: true },
    open: { state: true },
  };
  declare entries: readonly AuditEntryView[] | null;
  declare error: string;
  declare open: AuditEntryView | null;
  private query = new QueryController(this, {
    actor: text,
    action: text,
    target: text,
    since: text,
    until: text,
  });

  constructor() {
    super();
    this.entries = null;
    this.error = "";
    this.open = null;
    this.query.onChange(() => void this.load());
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** The filters as the API takes them (times in epoch ms). */
  private filters(): Record<string, string> {
    const f = this.query.value;
    return {
      actor: f.actor,
      action: f.action,
      target: f.target,
      since: localTime(f.since),
      until: localTime(f.until),
    };
  }

  private async load(): Promise<void> {
    const answer = await call("GET /audit", { query: { ...this.filters(), limit: LIMIT } });
    if (answer.ok) {
      this.entries = answer.data.entries;
      this.error = "";
    } else this.error = answer.message;
  }

  private exportHref(format: "csv" | "jsonl"): string {
    const query = new URLSearchParams(Object.entries(this.filters()).filter(([, v]) => v !== ""));
    query.set("format", format);
    query.set("limit", "1000");
    return `${API_BASE}/audit?${query}`;
  }

  override render() {
    return html`
      <gw-page-header heading="Audit Log" description="Who changed what, when and from where; sign-ins too.">
        <a class="btn" href=${this.exportHref("csv")} download="gateway-audit.csv"
          data-action="export-csv">${icon(
            "download",
          )}Export CSV</a>
        <a class="btn" href=${this.exportHref("jsonl")} download="gateway-audit.jsonl"
          data-action="export-jsonl">${icon(
            "download",
          )}Export JSONL</a>
      </gw-page-header>
      ${this.filterBar()} ${this.body()} ${this.detailDialog()}
    `;
  }

  private filterBar() {
    const f = this.query.value;
    const set = (name: string) => (e: Event) => this.query.set({ [name]: value(e) });
    return html`
      <div class="card toolbar" style="margin-bottom:12px;display:flex;gap:8px;flex-wrap:wrap;align-items:end">
        <gw-field label="Actor"><input name="actor" .value=${f.actor} placeholder="key name, email, OS user"
          @change=${set("actor")}></gw-field>
        <gw-field label="Action"><input name="action" .value=${f.action} placeholder="keys.create, or keys."
          @change=${set("action")}></gw-field>
        <gw-field label="Target"><input name="target" .value=${f.target} placeholder="keys:12"
          @change=${set("target")}></gw-field>
        <gw-field label="From"><input name="since" type="datetime-local" .value=${f.since}
          @change=${set("since")}></gw-field>
        <gw-field label="To"><input name="until" type="datetime-local" .value=${f.until}
          @change=${set("until")}></gw-field>
      </div>
    `;
  }

  private body() {
    if (this.error !== "") {
      return html`
        <div class="card">
          <gw-empty icon="alert" heading="Could not load the audit log"
            text=${this.error}></gw-empty>
        </div>
      `;
    }
    const rows = this.entries;
    if (rows === null) return html`<div class="card skeleton" style="height:120px"></div>`;
    if (rows.length === 0) {
      return html`
        <div class="card">
          <gw-empty icon="audit" heading="No audit rows match"
            text="Changes and sign-ins appear here as they happen. Change the filters to see more."></gw-empty>
        </div>
      `;
    }
    return html`
      <div class="card">
        <div class="table-wrap">
          <table data-testid="audit">
            <thead>
              <tr>
                <th>Time</th>
                <th>Actor</th>
                <th>Address</th>
                <th>Action</th>
                <th>Target</th>
                <th></th>
              </tr>
            </thead>
            <tbody>${rows.map((r) =>
              html`
                <tr>
                  <td class="small muted nowrap">${formatDateTime(r.ts)}</td>
                  <td><b>${r.actor}</b> <span class="badge">${r.actor_kind}</span></td>
                  <td class="mono small">${r.address || "–"}</td>
                  <td><code>${r.action}</code></td>
                  <td class="mono small">${r.target || "–"}</td>
                  <td class="right"><button class="sm" @click=${() => (this.open = r)}>Details</button></td>
                </tr>
              `
            )}</tbody>
          </table>
        </div>
      </div>
      <p class="small faint" style="margin-top:10px">Newest ${LIMIT} shown; secrets are redacted before rows are
        stored. Rows older than the <code>server_audit_retention_days</code> setting are pruned.</p>
    `;
  }

  private detailDialog() {
    const r = this.open;
    return html`
      <gw-dialog wide .open=${r !== null} heading=${r ? `${r.action} · ${r.target || r.actor}` : "Audit row"}
        @gw-close=${() => (this.open = null)}>
        ${r
          ? html`
            <h3>Before</h3>
            <gw-json-view .value=${parsed(r.before)}></gw-json-view>
            <h3>After</h3>
            <gw-json-view .value=${parsed(r.after)}></gw-json-view>
          `
          : nothing}
      </gw-dialog>
    `;
  }
}

customElements.define("gw-audit-screen", GwAuditScreen);
