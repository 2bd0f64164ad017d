import { css, html } from "lit";
import type { LiveEvent, UsageSection } from "../../../src/dashboard/contract/usage.ts";
import { LiveController } from "../api/live_controller.ts";
import { StateController } from "../api/state_controller.ts";
import { formatCompact, formatCost, formatInt, formatTime } from "../lib/format.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";
import { type RequestRow, requestTable } from "../components/request_table.ts";

const WINDOW_S = 120;

/** Usage: live in-flight count and request feed (SSE with reconnection), plus today's totals and history. */
export class GwUsageScreen extends ScreenBase {
  static override properties = { tick: { state: true } };
  static override styles = [
    sharedStyles,
    css`
      .live {
        display: inline-flex;
        align-items: center;
        gap: 6px;
      }
      .pulse {
        width: 8px;
        height: 8px;
        border-radius: 50%;
        background: var(--gw-ok);
        box-shadow: 0 0 0 0 var(--gw-ok);
        animation: pulse 1.6s infinite;
      }
      .reconnecting .pulse,
      .connecting .pulse {
        background: var(--gw-warn);
        animation: none;
      }
      @keyframes pulse {
        0% {
          box-shadow: 0 0 0 0 color-mix(in srgb, var(--gw-ok) 60%, transparent);
        }
        100% {
          box-shadow: 0 0 0 8px transparent;
        }
      }
      .feed td {
        white-space: nowrap;
      }
    `,
  ];
  declare tick: number;
  private state = new StateController(this, "usage", 30_000);
  private live = new LiveController(this);
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSeq: unknown = undefined;
  private lastRefresh = 0;

  constructor() {
    super();
    this.tick = Date.now();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The rolling chart moves even when no events arrive.
    this.timer = setInterval(() => (this.tick = Date.now()), 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.timer);
  }

  protected override willUpdate(): void {
    const url = this.state.data?.live_url;
    if (url) this.live.setUrl(url);
    // Totals come from the state read; refresh them (throttled) whenever live events arrive.
    const last = this.live.events.at(-1)?.seq;
    if (last !== undefined && last !== this.lastSeq && Date.now() - this.lastRefresh > 3000) {
      this.lastSeq = last;
      this.lastRefresh = Date.now();
      void this.state.refresh(true);
    }
  }

  override render() {
    const status = this.live.status;
    return html`
      <gw-page-header heading="Usage" description="Requests as they happen, and how much was used.">
        <span class="badge ${status === "live" ? "ok" : "warn"} live ${status}" data-live-status=${status}>
                <span class="pulse"></span>${status === "live"
                  ? "Live"
                  : status === "connecting"
                  ? "Connecting…"
                  : "Reconnecting…"}</span>
      </gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))}
    `;
  }

  private body(d: UsageSection) {
    const { today } = d;
    const finished = this.live.events.filter((e) => e.phase === "finish");
    const now = Math.floor(this.tick / 1000);
    const buckets = new Array<number>(WINDOW_S).fill(0);
    for (const e of finished) {
      const age = now - Math.floor(e.ts / 1000);
      if (age >= 0 && age < WINDOW_S) buckets[WINDOW_S - 1 - age]++;
    }
    const feed = this.live.events.filter((e) => e.phase !== "usage").slice(-25).reverse();
    const { daily } = d;
    const byModel = d.by_model;
    return html`
      <div class="stack">
        <div class="grid-stats">
          <gw-stat label="In flight" data-testid="inflight" .value=${formatInt(this.live.inflight)}
            hint="requests running now"></gw-stat>
          <gw-stat label="Requests today" data-testid="requests-today" .value=${formatInt(
            today.requests,
          )}></gw-stat>
          <gw-stat label="Tokens today" .value=${formatCompact(
            today.input_tokens + today.output_tokens,
          )}
            .hint=${`${formatCompact(today.input_tokens)} in · ${
              formatCompact(today.output_tokens)
            } out`}></gw-stat>
          <gw-stat label="Cost today" .value=${formatCost(today.cost)}></gw-stat>
        </div>
        <div class="card">
          <div class="card-head"><h2>Requests per second, last 2 minutes</h2>
                <span class="small muted">${formatInt(
                  buckets.reduce((a, b) => a + b, 0),
                )} finished${this.live.dropped > 0
                  ? ` · ${formatInt(this.live.dropped)} skipped while catching up`
                  : ""}</span></div>
          <div class="card-body">
            <gw-bar-chart compact label="Requests per second" .height=${90}
              .points=${buckets.map((v, i) => ({ label: `${WINDOW_S - 1 - i}s ago`, value: v }))}
              .format=${(v: number) => `${v} req`}></gw-bar-chart>
          </div>
        </div>
        <div class="card">
              <div class="card-head"><h2>Live feed</h2><span class="small muted">newest first</span></div>
              ${feed.length === 0
                ? html`
                  <gw-empty icon="usage" heading="Waiting for requests"
                    text="Requests appear here the moment they start. Point a client at the gateway (see Tools) or send a test from Providers."></gw-empty>
                `
                : html`
                  ${requestTable(this.rows(feed), {
                    testid: "live-feed",
                    className: "feed",
                    time: formatTime,
                  })}
                `}
            </div>
        <div class="grid-2">
          <div class="card">
            <div class="card-head">
              <h2>Requests per day, last 30 days</h2>
            </div>
            <div class="card-body">
              <gw-bar-chart label="Requests per day" .height=${180}
                .points=${daily.map((x) => ({ label: x.date.slice(5), value: x.requests }))}
                .format=${(v: number) => formatCompact(v)}></gw-bar-chart>
            </div>
          </div>
          <div class="card">
                <div class="card-head"><h2>By model, last 30 days</h2></div>
                ${byModel.length === 0
                  ? html`<div class="card-body muted small">No usage recorded yet.</div>`
                  : html`
                    <div class="table-wrap">
                      <table>
                        <thead>
                          <tr>
                            <th>Model</th>
                            <th class="right">Requests</th>
                            <th class="right">Tokens</th>
                            <th class="right">Cost</th>
                          </tr>
                        </thead>
                        <tbody>${byModel.slice(0, 10).map((m) =>
                          html`
                            <tr>
                              <td class="mono">${m.key}</td>
                              <td class="right num">${formatInt(m.requests)}</td>
                              <td class="right num">${formatCompact(
                                m.input_tokens + m.output_tokens,
                              )}</td>
                              <td class="right num">${formatCost(m.cost)}</td>
                            </tr>
                          `
                        )}</tbody>
                      </table>
                    </div>
                  `}
              </div>
        </div>
      </div>
    `;
  }

  /** Feed events as rows; a request that has finished shows once, as finished. */
  private rows(feed: readonly LiveEvent[]): RequestRow[] {
    const finished = new Set(this.live.events.filter((x) => x.phase === "finish").map((x) => x.request_id));
    return feed
      .filter((e) => e.phase !== "start" || !finished.has(e.request_id))
      .map((e) => ({
        ts: e.ts,
        model: e.model,
        provider: e.provider_id,
        user: e.user,
        status: e.phase === "start" ? "running" : e.status,
        latencyMs: e.phase === "start" ? null : e.latency_ms,
      }));
  }
}
customElements.define("gw-usage-screen", GwUsageScreen);
