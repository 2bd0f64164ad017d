import { css, html, nothing } from "lit";
import type {
  LogDetailView,
  LogSummaryView,
  RequestLogsSection,
} from "../../../src/features/request_logs/contract.ts";
import { API_BASE, call } from "../api/client.ts";
import { page, QueryController } from "../api/query_controller.ts";
import { StateController } from "../api/state_controller.ts";
import type { ValueEvent } from "../lib/events.ts";
import { formatDateTime, formatInt, formatLatency } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";
import { type RequestRow, requestTable } from "../components/request_table.ts";

const LIMIT = 50;

/** Request Logs: paginated table, JSON detail per request, export as JSON and clear. */
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
  /** The row clicked, then its full record once loaded. */
  declare detail: (LogSummaryView & Partial<LogDetailView>) | null;
  declare detailError: string;
  declare clearing: boolean;
  private query = new QueryController(this, { page }, { limit: LIMIT });
  private state = new StateController(this, "request-logs", 15_000, this.query);

  constructor() {
    super();
    this.detail = null;
    this.detailError = "";
    this.clearing = false;
  }

  override render() {
    const total = this.state.data?.total ?? 0;
    return html`
      <gw-page-header heading="Request Logs" description="Captured requests and responses, newest first.">
        <a class="btn" href=${`${API_BASE}/request-logs/export`} download="gateway-request-logs.json"
          data-action="export-logs">${icon("download")}Export JSON</a>
        <button class="danger" ?disabled=${total === 0} @click=${() => (this.clearing = true)}>${icon(
          "trash",
        )}Clear</button>
      </gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))}
            ${this.detailDialog()} ${this.clearDialog()}
    `;
  }

  private body(d: RequestLogsSection) {
    const { logs } = d;
    const enabled = d.logging_enabled;
    return html`
      ${enabled
        ? nothing
        : html`<div class="off">${
          icon("info")
        }<span>Request logging is off, so new requests are not captured.</span>
          <button class="sm primary" @click=${this.enableLogging}>Turn on logging</button></div>`}
            <div class="card">${logs.length === 0
              ? html`
                <gw-empty icon="request-logs" heading="No captured requests"
                  text=${enabled
                    ? "Logging is on. Send a request through the gateway and it appears here with its full request and response."
                    : "Turn on request logging, then send a request through the gateway to see it here."}></gw-empty>
              `
              : html`
                ${requestTable(logs.map(logRow), {
                  testid: "logs",
                  time: formatDateTime,
                  format: true,
                  open: (i) => this.open(logs[i]),
                })}
                <div class="card-foot">
                  <gw-pager .total=${d.total} .limit=${d.limit} .offset=${(d.page - 1) * d.limit}
                    @gw-value=${this.onPage}></gw-pager>
                </div>
              `}</div>
            <p class="small faint"
        style="margin-top:10px">Keeps the newest ${formatInt(
          d.retention,
        )} requests; bodies are cut at 64 KB.</p>
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
                  <div><span>Provider</span>${l.provider_id || "–"}</div>
                  <div><span>Status</span>${l.status}</div>
                  <div><span>Latency</span>${formatLatency(l.latency_ms)}</div>
                  <div><span>User</span>${l.user}</div>
                  <div><span>Warnings</span>${l.warnings.length}</div>
                </div>
                          ${l.error ? html`<div class="form-error">${l.error}</div>` : nothing}
                          ${l.warnings.length > 0
                            ? html`
                              <h3>Warnings <span class="badge warn">${l.warnings.length}</span></h3>
                              <ul data-testid="log-warnings">${l.warnings.map((w) =>
                                html`
                                  <li><code>${w.code}</code> ${w.message}</li>
                                `
                              )}</ul>
                            `
                            : nothing}
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
                          <h3>Full record</h3>
                          <gw-json-view .value=${l}></gw-json-view>
              `
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
        <p>All captured requests and responses are deleted. Usage and cost history are kept. Export first if you need them.</p>
        <button slot="footer" @click=${() => (this.clearing = false)}>Cancel</button>
        <button slot="footer" class="danger-solid" @click=${this.clear}>Clear logs</button>
      </gw-dialog>
    `;
  }

  private async open(l: LogSummaryView): Promise<void> {
    this.detailError = "";
    this.detail = { ...l };
    const result = await call("GET /request-logs/:id", { params: { id: l.id } });
    if (result.ok) this.detail = result.data.log;
    else this.detailError = "The full record is gone (pruned or cleared). Showing the summary only.";
  }

  private readonly onPage = (e: ValueEvent<unknown>): void => {
    this.query.set({ page: Math.floor(Number(e.value) / LIMIT) + 1 });
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

/** A captured request as a row of the shared request table. */
function logRow(l: LogSummaryView): RequestRow {
  return {
    ts: l.ts,
    model: l.model,
    provider: l.provider_id,
    user: l.user,
    format: { name: l.client_format, streamed: l.streamed },
    status: l.status,
    latencyMs: l.latency_ms,
  };
}
