import { html, nothing, type TemplateResult } from "lit";
import { formatLatency } from "../lib/format.ts";

/** One request as a row of the live feed on Usage. */
export interface RequestRow {
  readonly ts: number;
  readonly model: string;
  readonly provider: string;
  readonly user: string;
  /** The client's wire format and whether it streamed; shown when the table has a Format column. */
  readonly format?: { readonly name: string; readonly streamed: boolean };
  /** The HTTP status (0: failed before one), or "running" while the request is in flight. */
  readonly status: number | "running";
  readonly latencyMs: number | null;
}

/** How a table of requests is drawn. */
export interface RequestTableOptions {
  readonly testid: string;
  /** How a row's time reads (a date and time for logs, the time alone for the live feed). */
  readonly time: (ts: number) => string;
  /** Show the client format column. */
  readonly format?: boolean;
  /** Rows open on click and Enter when given (the row's index). */
  readonly open?: (index: number) => void;
  readonly className?: string;
}

/**
 * The request-row table of the live feed (Request Logs draws its own, with tokens, cost and attempts). A
 * template, not an element: its rows stay in the screen's shadow root and take its table styles
 * (`status-*` classes come from the shared table styles).
 */
export function requestTable(rows: readonly RequestRow[], options: RequestTableOptions): TemplateResult {
  const { open } = options;
  return html`
    <div class="table-wrap">
      <table class=${options.className ?? ""} data-testid=${options.testid}>
        <thead>
          <tr>
            <th>Time</th>
            <th>Model</th>
            <th>Provider</th>
            <th>User</th>
            ${options.format ? html`<th>Format</th>` : nothing}
            <th>Status</th>
            <th class="right">Latency</th>
          </tr>
        </thead>
        <tbody>${rows.map((r, i) =>
          html`
            <tr class=${open ? "clickable" : ""} tabindex=${open ? "0" : "-1"} @click=${() => open?.(i)}
              @keydown=${(e: KeyboardEvent) => e.key === "Enter" && open?.(i)}>
              <td class="small nowrap num">${options.time(r.ts)}</td>
              <td class="mono small">${r.model}</td>
              <td class="small">${r.provider || html`<span class="faint">–</span>`}</td>
              <td class="small">${r.user || html`<span class="faint">anonymous</span>`}</td>
              ${options.format
                ? html`<td class="small muted">${r.format?.name ?? ""}${
                  r.format?.streamed ? html`<span class="badge">stream</span>` : nothing
                }</td>`
                : nothing}
              <td>${statusCell(r.status)}</td>
              <td class="right num small">${r.latencyMs === null ? "–" : formatLatency(r.latencyMs)}</td>
            </tr>
          `
        )}</tbody>
      </table>
    </div>
  `;
}

function statusCell(status: number | "running"): TemplateResult {
  if (status === "running") return html`<span class="status-run">running</span>`;
  const level = status >= 200 && status < 400 ? "ok" : status >= 400 && status < 500 ? "warn" : "bad";
  return html`<span class="status-${level}">${status || "error"}</span>`;
}
