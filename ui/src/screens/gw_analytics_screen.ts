import { css, html, nothing } from "lit";
import type {
  AnalyticsSection,
  BreakdownRow,
  KeyDrillDown,
  LatencyRow,
} from "../../../src/dashboard/contract/usage.ts";
import { choice, QueryController, text } from "../api/query_controller.ts";
import { StateController } from "../api/state_controller.ts";
import type { SegmentOption } from "../components/gw_segmented.ts";
import type { ValueEvent } from "../lib/events.ts";
import { formatCompact, formatCost, formatInt, formatLatency, formatPercent } from "../lib/format.ts";
import { DAY_PERIODS } from "../lib/options.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

const DIMENSIONS: readonly SegmentOption[] = [
  { value: "model", label: "Model" },
  { value: "provider", label: "Provider" },
  { value: "account", label: "Account" },
  { value: "client_key", label: "Client key" },
  { value: "group", label: "Group" },
  { value: "kind", label: "Kind" },
];
/** The kinds of work usage is recorded as; "" is every kind. */
const KINDS: readonly SegmentOption[] = [
  { value: "", label: "All" },
  { value: "chat", label: "Chat" },
  { value: "completion", label: "Completion" },
  { value: "embedding", label: "Embedding" },
  { value: "image", label: "Image" },
  { value: "audio", label: "Audio" },
  { value: "rerank", label: "Rerank" },
];
const METRICS: readonly SegmentOption[] = [
  { value: "cost", label: "Cost" },
  { value: "requests", label: "Requests" },
  { value: "tokens", label: "Tokens" },
];

/** Analytics: spend, requests, tokens and success rate over 7–365 days, broken down by a dimension. */
export class GwAnalyticsScreen extends ScreenBase {
  static override properties = { metric: { state: true } };
  static override styles = [
    sharedStyles,
    css`
      .controls {
        display: flex;
        gap: var(--gw-space-3);
        flex-wrap: wrap;
        align-items: center;
        margin-bottom: var(--gw-space-4);
      }
      .share {
        display: flex;
        align-items: center;
        gap: 8px;
        min-width: 120px;
      }
      .share .track {
        flex: 1;
        height: 6px;
        border-radius: 999px;
        background: var(--gw-surface-3);
        overflow: hidden;
      }
      .share .fill {
        height: 100%;
        background: var(--gw-chart-1);
        border-radius: inherit;
      }
      .success-bar {
        display: flex;
        height: 10px;
        border-radius: 999px;
        overflow: hidden;
        background: var(--gw-surface-3);
      }
      .success-bar span {
        display: block;
        height: 100%;
      }
      .legend {
        display: flex;
        gap: var(--gw-space-4);
        flex-wrap: wrap;
        margin-top: 10px;
        font-size: var(--gw-text-sm);
        color: var(--gw-text-muted);
      }
      .legend i {
        display: inline-block;
        width: 10px;
        height: 10px;
        border-radius: 3px;
        margin-right: 6px;
        vertical-align: -1px;
      }
    `,
  ];
  declare metric: string;
  private query = new QueryController(this, {
    days: choice(DAY_PERIODS, "30"),
    dimension: choice(DIMENSIONS, "model"),
    kind: choice(KINDS, ""),
    key: text,
  });
  private state = new StateController(this, "analytics", 0, this.query);

  constructor() {
    super();
    this.metric = "cost";
  }

  override render() {
    return html`
      <gw-page-header heading="Analytics" description="Spend, tokens and success rate over time."></gw-page-header>
            <div class="controls">
        <gw-segmented label="Period" .options=${DAY_PERIODS} .value=${this.query.value.days} @gw-value=${(
          e: ValueEvent<unknown>,
        ) => this.query.set({ days: String(e.value) })}></gw-segmented>
        <gw-segmented label="Breakdown" .options=${DIMENSIONS} .value=${this.query.value.dimension}
          @gw-value=${(e: ValueEvent<unknown>) =>
            this.query.set({ dimension: String(e.value) })}></gw-segmented>
        <gw-segmented label="Kind" data-testid="kind-filter" .options=${KINDS} .value=${this.query.value.kind}
          @gw-value=${(e: ValueEvent<unknown>) => this.query.set({ kind: String(e.value) })}></gw-segmented>
      </div>
            ${this.frame(this.state, (d) => this.body(d))}
    `;
  }

  /** One key's drill-down: its totals, requests per day, and its models overall and per day. */
  private keyCard(k: KeyDrillDown) {
    return html`
      <div class="card" data-key-detail=${k.key}>
        <div class="card-head"><h2>Key <span class="mono">${k.key}</span></h2>
              <button data-read class="sm" @click=${() => this.query.set({ key: "" })}>Close</button></div>
        <div class="card-body stack">
          <div class="grid-stats">
            <gw-stat label="Requests" .value=${formatInt(k.summary.requests)}></gw-stat>
            <gw-stat label="Tokens" .value=${formatCompact(
              k.summary.input_tokens + k.summary.output_tokens,
            )}></gw-stat>
            <gw-stat label="Cost" .value=${formatCost(k.summary.cost)}></gw-stat>
            <gw-stat label="Errors" .value=${formatInt(k.summary.errors)}></gw-stat>
          </div>
          <gw-bar-chart .label=${"requests per day"} .height=${160}
            .points=${k.daily.map((x) => ({ label: x.date.slice(5), value: x.requests }))}
            .format=${formatCompact}></gw-bar-chart>
          <div class="table-wrap">
            <table data-testid="key-models">
              <thead>
                <tr>
                  <th>Model</th>
                  <th class="right">Requests</th>
                  <th class="right">Tokens</th>
                  <th>Cost</th>
                </tr>
              </thead>
              <tbody>${k.models.map((m) =>
                html`
                  <tr>
                    <td class="mono small">${m.key}</td>
                    <td class="right num">${formatInt(m.requests)}</td>
                    <td class="right num">${formatCompact(m.input_tokens + m.output_tokens)}</td>
                    <td>${formatCost(m.cost)}</td>
                  </tr>
                `
              )}</tbody>
            </table>
          </div>
          <div class="table-wrap">
            <table data-testid="key-model-days">
              <thead>
                <tr>
                  <th>Day</th>
                  <th>Model</th>
                  <th class="right">Requests</th>
                </tr>
              </thead>
              <tbody>${k.model_daily.map((r) =>
                html`
                  <tr>
                    <td class="small">${r.date}</td>
                    <td class="mono small">${r.model}</td>
                    <td class="right num">${formatInt(r.requests)}</td>
                  </tr>
                `
              )}</tbody>
            </table>
          </div>
        </div>
      </div>
    `;
  }

  private body(d: AnalyticsSection) {
    const { summary, success, daily, breakdown } = d;
    const { total } = success;
    const unpriced = d.unpriced_models;
    const value = (x: BreakdownRow | AnalyticsSection["daily"][number]) =>
      this.metric === "cost"
        ? x.cost
        : this.metric === "requests"
        ? x.requests
        : x.input_tokens + x.output_tokens;
    const fmt = (v: number) => this.metric === "cost" ? formatCost(v) : formatCompact(v);
    const maxShare = Math.max(...breakdown.map((b) => b.cost), 0);
    const dimLabel = DIMENSIONS.find((x) => x.value === this.query.value.dimension)?.label ?? "Key";
    return html`
      <div class="stack">
        <div class="grid-stats">
          <gw-stat label="Cost" .value=${formatCost(
            summary.cost,
          )} .hint=${`last ${this.query.value.days} days${d.kind ? `, ${d.kind} only` : ""}`}></gw-stat>
          <gw-stat label="Requests" .value=${formatInt(summary.requests)}></gw-stat>
          <gw-stat label="Input tokens" .value=${formatCompact(summary.input_tokens)}
            .hint=${`${formatCompact(summary.cache_read_tokens)} cache read`}></gw-stat>
          <gw-stat label="Output tokens" .value=${formatCompact(summary.output_tokens)}></gw-stat>
          <gw-stat label="Success rate" .value=${total === 0 ? "–" : formatPercent(summary.success_rate)}
            .tone=${total === 0
              ? ""
              : summary.success_rate >= 95
              ? "ok"
              : summary.success_rate >= 80
              ? "warn"
              : "danger"}></gw-stat>
        </div>
        <div class="card">
          <div class="card-head">
            <h2>${d.hourly ? "Per hour" : "Per day"}</h2>
            <gw-segmented label="Metric" .options=${METRICS} .value=${this.metric}
              @gw-value=${(e: ValueEvent<unknown>) => (this.metric = String(e.value))}></gw-segmented>
          </div>
          <div class="card-body">
            <gw-bar-chart .label=${`${this.metric} per ${d.hourly ? "hour" : "day"}`} .height=${220}
              .points=${(d.hourly ?? daily).map((x) => ({
                label: d.hourly ? x.date.slice(11, 16) : x.date.slice(5),
                value: value(x),
              }))} .format=${fmt}></gw-bar-chart>
          </div>
        </div>
        <div class="grid-2">
          <div class="card">
            <div class="card-head"><h2>Outcomes</h2><span class="small muted">${formatInt(
              total,
            )} requests</span></div>
            <div class="card-body">${total === 0
              ? html`<p class="muted small">No requests in this period.</p>`
              : html`
                <div class="success-bar" role="img" aria-label="Outcome split">
                  <span style="width:${(success.success_2xx / total) *
                    100}%;background:var(--gw-ok)"></span>
                  <span style="width:${(success.client_4xx / total) *
                    100}%;background:var(--gw-warn)"></span>
                  <span style="width:${(success.server_5xx / total) *
                    100}%;background:var(--gw-danger)"></span>
                </div>
                <div class="legend">
                  <span><i style="background:var(--gw-ok)"></i>2xx ${formatInt(success.success_2xx)}</span>
                  <span><i style="background:var(--gw-warn)"></i>4xx ${formatInt(success.client_4xx)}</span>
                  <span><i style="background:var(--gw-danger)"></i>5xx ${formatInt(success.server_5xx)}</span>
                </div>
              `}</div>
          </div>
          <div class="card">
            <div class="card-head">
              <h2>Unpriced models</h2>
            </div>
            <div class="card-body">${unpriced.length === 0
              ? html`<p class="muted small">Every model used in this period has a price.</p>`
              : html`
                <p
                  class="small muted">These cost $0 until you add a price on the <a href="/dashboard/ui/pricing">Pricing</a> screen.</p>
                <div class="chips" style="margin-top:10px">${unpriced.map((u) =>
                  html`<span class="chip">${u.model} · ${formatInt(u.requests)}</span>`
                )}</div>
              `}</div>
          </div>
        </div>
        ${d.key_detail ? this.keyCard(d.key_detail) : nothing}
        ${latencyCard(d.latency, d.ttft)}
        <div class="card">
              <div class="card-head"><h2>By ${dimLabel.toLowerCase()}</h2></div>
              ${breakdown.length === 0
                ? html`
                  <gw-empty icon="analytics" heading="Nothing to break down yet"
                    text="Send some requests through the gateway; they show up here within seconds."></gw-empty>
                `
                : html`
                  <div class="table-wrap">
                    <table data-testid="breakdown">
                      <thead>
                        <tr>
                          <th>${dimLabel}</th>
                          <th class="right">Requests</th>
                          <th class="right">Input</th>
                          <th class="right">Output</th>
                          <th class="right" title="share of input tokens read from the prompt cache">Cache read</th>
                          <th class="right">Success</th>
                          <th>Cost</th>
                        </tr>
                      </thead>
                      <tbody>${breakdown.map((b) =>
                        html`
                          <tr data-key=${b.key}>
                            <td class="mono small">${this.query.value.dimension === "client_key" && b.key
                              ? html`
                                <button data-read class="sm ghost" data-drill=${b.key}
                                  title="Requests, tokens, cost, errors and models of this key over time"
                                  @click=${() => this.query.set({ key: b.key })}>${b.key}</button>
                              `
                              : b.key || "–"}</td>
                            <td class="right num">${formatInt(b.requests)}</td>
                            <td class="right num">${formatCompact(b.input_tokens)}</td>
                            <td class="right num">${formatCompact(b.output_tokens)}</td>
                            <td class="right num" data-testid="cache-read">${formatPercent(
                              b.cache_read_pct,
                            )}</td>
                            <td class="right num">${b.success_pct === undefined
                              ? "–"
                              : formatPercent(b.success_pct)}</td>
                            <td>
                              <div class="share"><span class="num" style="min-width:64px">${formatCost(
                                b.cost,
                              )}</span>
                                          <span class="track"><span class="fill" style="display:block;width:${maxShare >
                                              0
                                            ? (b.cost / maxShare) * 100
                                            : 0}%"></span></span></div>
                            </td>
                          </tr>
                        `
                      )}</tbody>
                    </table>
                  </div>
                `}
            </div>
      </div>${nothing}
    `;
  }
}
/**
 * p50 / p95 latency and time to first token of successful requests, per model and per provider. Latency
 * comes from usage rows, time to first token from the request index; a group only one of them has shows
 * "–" for the other.
 */
function latencyCard(latency: AnalyticsSection["latency"], ttft: AnalyticsSection["ttft"]) {
  if (latency.by_model.length === 0 && ttft.by_model.length === 0) return nothing;
  const ms = (row: LatencyRow | undefined, pick: (r: LatencyRow) => number) =>
    row === undefined ? "–" : formatLatency(pick(row));
  const table = (heading: string, rows: readonly LatencyRow[], firsts: readonly LatencyRow[], id: string) => {
    const byKey = new Map(firsts.map((r) => [r.key, r]));
    const keys = [...new Set([...rows.map((r) => r.key), ...firsts.map((r) => r.key)])];
    const latencyOf = new Map(rows.map((r) => [r.key, r]));
    return html`
      <div class="table-wrap">
        <table data-testid=${id}>
          <thead>
            <tr>
              <th>${heading}</th>
              <th class="right">Requests</th>
              <th class="right">p50</th>
              <th class="right">p95</th>
              <th class="right">TTFT p50</th>
              <th class="right">TTFT p95</th>
            </tr>
          </thead>
          <tbody>${keys.map((key) => {
            const l = latencyOf.get(key);
            const f = byKey.get(key);
            return html`
              <tr data-key=${key}>
                <td class="mono small">${key || "–"}</td>
                <td class="right num">${formatInt(l?.requests ?? f?.requests ?? 0)}</td>
                <td class="right num">${ms(l, (r) => r.p50_ms)}</td>
                <td class="right num">${ms(l, (r) => r.p95_ms)}</td>
                <td class="right num" data-testid="ttft-p50">${ms(f, (r) => r.p50_ms)}</td>
                <td class="right num" data-testid="ttft-p95">${ms(f, (r) => r.p95_ms)}</td>
              </tr>
            `;
          })}</tbody>
        </table>
      </div>
    `;
  };
  return html`
    <div class="card">
      <div
        class="card-head"><h2>Latency</h2><span class="small muted">successful requests: end to end, and time to first token (TTFT)</span></div>
      <div class="grid-2">${table("Model", latency.by_model, ttft.by_model, "latency-model")}${table(
        "Provider",
        latency.by_provider,
        ttft.by_provider,
        "latency-provider",
      )}</div>
    </div>
  `;
}

customElements.define("gw-analytics-screen", GwAnalyticsScreen);
