import { css, html, nothing } from "lit";
import type {
  LogDetailView,
  RequestLogsSection,
  RequestRowView,
} from "../../../src/features/request_logs/contract.ts";
import { API_BASE, call } from "../api/client.ts";
import { QueryController, text } from "../api/query_controller.ts";
import { StateController } from "../api/state_controller.ts";
import { formatCost, formatDateTime, formatInt, formatLatency } from "../lib/format.ts";
import { inputValue as value } from "../lib/form.ts";
import { icon } from "../lib/icons.ts";
import { screenPath } from "../app/routes.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

const LIMIT = 50;

/** The filters the server applies (docs/dashboard-api.md), kept in the address bar. */
const FILTERS = {
  from: text,
  to: text,
  model: text,
  provider: text,
  account: text,
  key: text,
  status: text,
  surface: text,
  stream: text,
  q: text,
  cursor: text,
};

const SURFACES = ["chat_completions", "responses", "messages", "generate_content", "local_runner"];

/** Request Logs: every request, filtered on the server a keyset page at a time; bodies while kept; export. */
export class GwRequestLogsScreen extends ScreenBase {
  static override properties = {
    detail: { state: true },
    detailError: { state: true },
    clearing: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .off {
        display: flex;
        align-items: center;
        gap: 12px;
        flex-wrap: wrap;
        padding: 12px 16px;
        border-radius: var(--gw-radius);
        background: var(--gw-info-soft);
        margin-bottom: var(--gw-space-4);
      }
      .off span {
        flex: 1;
        min-width: 200px;
      }
      .filters {
        display: flex;
        gap: 8px;
        flex-wrap: wrap;
        align-items: end;
        margin-bottom: 12px;
      }
      .filters input {
        width: 150px;
      }
      .meta {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(150px, 1fr));
        gap: 10px 16px;
        margin-bottom: var(--gw-space-4);
        font-size: var(--gw-text-sm);
      }
      .meta div span {
        display: block;
        color: var(--gw-text-muted);
        font-size: var(--gw-text-xs);
      }
      h3 {
        margin: var(--gw-space-4) 0 var(--gw-space-2);
      }
    `,
  ];
  /** The row clicked, with its bodies once loaded. */
  declare detail: (RequestRowView & Partial<LogDetailView>) | null;
  declare detailError: string;
  declare clearing: boolean;
  private query = new QueryController(this, FILTERS, { limit: LIMIT });
  private state = new StateController(this, "request-logs", 15_000, this.query);
  /** Cursors of the pages before this one, so "Newer" can go back. */
  private previous: string[] = [];

  constructor() {
    super();
    this.detail = null;
    this.detailError = "";
    this.clearing = false;
  }

  override render() {
    const rows = this.state.data?.rows.length ?? 0;
    return html`
      <gw-page-header heading="Request Logs"
        description="Every request, newest first; bodies for the newest captured ones.">
        <a class="btn" href=${this.exportHref()} download="gateway-request-logs.json"
          data-action="export-logs">${icon("download")}Export JSON</a>
        <button class="danger" ?disabled=${rows === 0} @click=${() => (this.clearing = true)}>${icon(
          "trash",
        )}Clear</button>
      </gw-page-header>
      ${this.filterBar()}
            ${this.frame(this.state, (d) => this.body(d))}
            ${this.detailDialog()} ${this.clearDialog()}
    `;
  }

  /** The export link carries the filters in force (not the page cursor). */
  private exportHref(): string {
    const params = new URLSearchParams();
    for (const [name, v] of Object.entries(this.query.value)) {
      if (name !== "cursor" && v !== "") params.set(name, String(v));
    }
    const search = params.toString();
    return `${API_BASE}/request-logs/export${search === "" ? "" : `?${search}`}`;
  }

  private filterBar() {
    const f = this.query.value;
    const field = (name: keyof typeof FILTERS, label: string, placeholder = "") =>
      html`<gw-field label=${label}><input name=${name} .value=${f[name]} placeholder=${placeholder}
        @change=${(e: Event) => this.setFilter({ [name]: value(e) })}></gw-field>`;
    const localTime = (name: "from" | "to", label: string) =>
      html`<gw-field label=${label}><input name=${name} type="datetime-local" .value=${toLocalInput(f[name])}
        @change=${(e: Event) => this.setFilter({ [name]: fromLocalInput(value(e)) })}></gw-field>`;
    return html`
      <div class="card toolbar filters" data-testid="log-filters">
        ${localTime("from", "From")} ${localTime("to", "To")} ${field("model", "Model", "prefix/model")}
        ${field("provider", "Provider")} ${field("account", "Account")} ${field(
          "key",
          "Key",
          "name, id or none",
        )}
        <gw-field label="Status"><select name="status" .value=${f.status}
          @change=${(e: Event) => this.setFilter({ status: value(e) })}>
          <option value="">Any</option>
          ${["2xx", "4xx", "5xx", "0"].map((s) =>
            html`<option value=${s} ?selected=${s === f.status}>${s === "0" ? "no status" : s}</option>`
          )}
        </select></gw-field>
        <gw-field label="Client"><select name="surface" .value=${f.surface}
          @change=${(e: Event) => this.setFilter({ surface: value(e) })}>
          <option value="">Any</option>
          ${SURFACES.map((s) => html`<option value=${s} ?selected=${s === f.surface}>${s}</option>`)}
        </select></gw-field>
        <gw-field label="Stream"><select name="stream" .value=${f.stream}
          @change=${(e: Event) => this.setFilter({ stream: value(e) })}>
          <option value="">Any</option>
          <option value="true" ?selected=${f.stream === "true"}>streamed</option>
          <option value="false" ?selected=${f.stream === "false"}>not streamed</option>
        </select></gw-field>
        <gw-field label="Text in bodies"><input name="q" type="search" .value=${f.q} maxlength="200"
          placeholder="kept bodies only" @change=${(e: Event) => this.setFilter({ q: value(e) })}></gw-field>
      </div>
    `;
  }

  private body(d: RequestLogsSection) {
    const { rows } = d;
    const enabled = d.logging_enabled;
    return html`
      ${enabled ? nothing : html`
        <div
          class="off">${icon(
            "info",
          )}<span>Request logging is off: requests are listed, but their bodies are not captured.</span>
                  <button class="sm primary" @click=${this.enableLogging}>Turn on logging</button></div>
      `}
            <div class="card">${rows.length === 0
              ? html`
                <gw-empty icon="request-logs" heading="No requests match"
                  text="Change the filters, or send a request through the gateway."></gw-empty>
              `
              : html`
                ${this.table(rows)}
                <div class="card-foot">
                  <button class="sm" data-action="newer" ?disabled=${this.query.value.cursor === ""}
                    @click=${this.newer}>Newer</button>
                  <button class="sm" data-action="older" ?disabled=${d.next_cursor === null}
                    @click=${() => this.older(d.next_cursor)}>Older</button>
                </div>
              `}</div>
            <p class="small faint"
        style="margin-top:10px">Bodies are kept for the newest ${formatInt(
          d.retention,
        )} requests and cut at 64 KB; the text search looks in those only.</p>
    `;
  }

  private table(rows: readonly RequestRowView[]) {
    return html`
      <div class="table-wrap">
        <table data-testid="logs">
          <thead>
            <tr>
              <th>Time</th>
              <th>Model</th>
              <th>Account</th>
              <th>User</th>
              <th>Format</th>
              <th>Status</th>
              <th class="right">Tokens in/out</th>
              <th class="right">Cost</th>
              <th class="right">TTFT</th>
              <th class="right">Latency</th>
              <th class="right">Attempts</th>
            </tr>
          </thead>
          <tbody>${rows.map((r) =>
            html`
              <tr class="clickable" tabindex="0" @click=${() => this.open(r)}
                @keydown=${(e: KeyboardEvent) => e.key === "Enter" && this.open(r)}>
                <td class="small nowrap num">${formatDateTime(r.ts)}</td>
                <td class="mono small">${r.model}</td>
                <td class="small">${r.account_id || html`<span class="faint">–</span>`}</td>
                <td class="small">${r.user || html`<span class="faint">anonymous</span>`}</td>
                <td class="small muted">${r.client_format}${r.streamed
                  ? html`<span class="badge">stream</span>`
                  : nothing}</td>
                <td>${statusCell(r.status)}</td>
                <td class="right num small">${formatInt(r.input_tokens)} / ${formatInt(r.output_tokens)}</td>
                <td class="right num small">${formatCost(r.cost)}</td>
                <td class="right num small">${r.ttft_ms < 0 ? "–" : formatLatency(r.ttft_ms)}</td>
                <td class="right num small">${formatLatency(r.latency_ms)}</td>
                <td class="right num small">${r.chain.length}</td>
              </tr>
            `
          )}</tbody>
        </table>
      </div>
    `;
  }

  private detailDialog() {
    const l = this.detail;
    return html`
      <gw-dialog wide .open=${l !== null || this.detailError !== ""} heading=${l
        ? `Request #${l.id}`
        : "Request"}
        @gw-close=${() => ((this.detail = null), (this.detailError = ""))}>
            ${this.detailError ? html`<div class="form-error">${this.detailError}</div>` : nothing}
            ${l
              ? html`
                <div class="meta">
                  <div><span>Time</span>${formatDateTime(l.ts)}</div>
                  <div><span>Model</span><code>${l.model}</code></div>
                  <div><span>Account</span>${l.account_id || "–"}</div>
                  <div><span>Status</span>${l.status}</div>
                  <div><span>Tokens in/out</span>${formatInt(l.input_tokens)} / ${formatInt(
                    l.output_tokens,
                  )}</div>
                  <div><span>Cost</span>${formatCost(l.cost)}</div>
                  <div><span>Time to first byte</span>${l.ttft_ms < 0 ? "–" : formatLatency(l.ttft_ms)}</div>
                  <div><span>Latency</span>${formatLatency(l.latency_ms)}</div>
                  <div><span>User</span>${l.user}</div>
                </div>
                          ${l.error ? html`<div class="form-error">${l.error}</div>` : nothing}
                          <h3>Attempts</h3>
                          <ol data-testid="log-chain">${l.chain.map((a) =>
                            html`<li><code>${a.account_id}</code> ${a.model} · ${statusCell(a.status)} · ${
                              formatLatency(a.latency_ms)
                            }${
                              a.error
                                ? html`
                                  · <span class="muted">${a.error}</span>
                                `
                                : nothing
                            }</li>`
                          )}</ol>
                          ${l.warnings && l.warnings.length > 0
                            ? html`
                              <h3>Warnings <span class="badge warn">${l.warnings.length}</span></h3>
                              <ul data-testid="log-warnings">${l.warnings.map((w) =>
                                html`
                                  <li><code>${w.code}</code> ${w.message}</li>
                                `
                              )}</ul>
                            `
                            : nothing}
                          ${l.request_body === undefined ? nothing : html`
                            <h3>Request${l.request_truncated
                              ? html`
                                <span class="badge warn">truncated</span>
                              `
                              : nothing}</h3>
                            <gw-json-view .value=${l.request_body}></gw-json-view>
                            <h3>Response${l.response_truncated
                              ? html`
                                <span class="badge warn">truncated</span>
                              `
                              : nothing}</h3>
                            <gw-json-view .value=${l.response_body}></gw-json-view>
                          `}
                          <h3>Full record</h3>
                          <gw-json-view .value=${l}></gw-json-view>
              `
              : nothing}
            ${l && l.log_id !== null && l.request_body !== undefined
              ? html`<button slot="footer" data-testid="log-open-playground" @click=${() =>
                this.go(screenPath("playground", { log: String(l.log_id) }))}>Open in Playground</button>`
              : nothing}
            <gw-copy-button slot="footer" label="Copy JSON" .text=${JSON.stringify(
              l,
              null,
              2,
            )}></gw-copy-button>
            <button slot="footer" @click=${() => ((this.detail = null),
              (this.detailError = ""))}>Close</button>
          </gw-dialog>
    `;
  }

  private clearDialog() {
    return html`
      <gw-dialog .open=${this
        .clearing} heading="Clear request logs?" @gw-close=${() => (this.clearing = false)}>
        <p>Every listed request and every captured body is deleted. Usage and cost history are kept. Export first if you need them.</p>
        <button slot="footer" @click=${() => (this.clearing = false)}>Cancel</button>
        <button slot="footer" class="danger-solid" @click=${this.clear}>Clear logs</button>
      </gw-dialog>
    `;
  }

  private async open(r: RequestRowView): Promise<void> {
    this.detailError = "";
    this.detail = { ...r };
    if (r.log_id === null) return;
    const result = await call("GET /request-logs/:id", { params: { id: r.log_id } });
    if (result.ok) this.detail = { ...r, ...result.data.log, id: r.id };
    else this.detailError = "The bodies are gone (pruned or cleared). Showing the summary only.";
  }

  private setFilter(change: Partial<typeof this.query.value>): void {
    this.previous = [];
    this.query.set({ ...change, cursor: "" });
  }

  private older(cursor: string | null): void {
    if (cursor === null) return;
    this.previous.push(this.query.value.cursor);
    this.query.set({ cursor });
  }

  private readonly newer = (): void => {
    this.query.set({ cursor: this.previous.pop() ?? "" });
  };

  private readonly enableLogging = async (): Promise<void> => {
    const result = await call("POST /settings", { body: { server_request_logging: true } });
    if (result.ok) this.toast("Request logging is on");
    else this.toast(result.message, "error");
    await this.state.refresh();
  };

  private readonly clear = async (): Promise<void> => {
    this.clearing = false;
    const result = await call("DELETE /request-logs");
    if (result.ok) this.toast(`Deleted ${formatInt(result.data.deleted)} log(s)`);
    else this.toast(result.message, "error");
    await this.state.refresh();
  };
}
customElements.define("gw-request-logs-screen", GwRequestLogsScreen);

function statusCell(status: number) {
  const level = status >= 200 && status < 400 ? "ok" : status >= 400 && status < 500 ? "warn" : "bad";
  return html`<span class="status-${level}">${status || "error"}</span>`;
}

/** An instant in ms as a datetime-local input shows it (the browser's time zone), "" when none. */
function toLocalInput(ms: string): string {
  const n = Number(ms);
  if (ms === "" || !Number.isFinite(n)) return "";
  const d = new Date(n - new Date(n).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** A datetime-local value (the browser's time zone) as ms for the server, "" when cleared. */
function fromLocalInput(local: string): string {
  if (local === "") return "";
  const ms = new Date(local).getTime();
  return Number.isFinite(ms) ? String(ms) : "";
}
