import { css, html, nothing } from "lit";
import type { OverviewSection } from "../../../src/dashboard/contract/usage.ts";
import { StateController } from "../api/state_controller.ts";
import { formatCompact, formatCost, formatInt } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { screenPath } from "../app/routes.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

/** Overview: totals, counts, today's cost, the global budget bar and a setup checklist. */
export class GwOverviewScreen extends ScreenBase {
  static override styles = [
    sharedStyles,
    css`
      .check-item {
        display: flex;
        align-items: center;
        gap: 10px;
        padding: 10px 0;
        border-bottom: 1px solid var(--gw-border);
      }
      .check-item:last-child {
        border-bottom: none;
      }
      .tick {
        width: 22px;
        height: 22px;
        border-radius: 50%;
        display: grid;
        place-items: center;
        flex: none;
        border: 1.5px solid var(--gw-border-strong);
        color: transparent;
      }
      .tick.done {
        background: var(--gw-ok);
        border-color: var(--gw-ok);
        color: #fff;
      }
      .check-item .text {
        flex: 1;
      }
      .endpoint {
        display: flex;
        align-items: center;
        gap: 8px;
        flex-wrap: wrap;
      }
      .endpoint code {
        font-size: var(--gw-text-sm);
        padding: 4px 8px;
      }
    `,
  ];
  private state = new StateController(this, "overview", 10_000);

  override render() {
    return html`
      <gw-page-header heading="Overview" description="Traffic, spend and setup at a glance.">
        <button data-read @click=${() => this.state.refresh()}>${icon("refresh")}Refresh</button>
      </gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))}
    `;
  }

  private body(d: OverviewSection) {
    const { totals, today, setup, daily } = d;
    const budget = d.global_budget;
    const topModels = d.top_models;
    const baseUrl = `${d.base_url || location.origin}/v1`;
    const steps = [
      {
        done: setup.has_providers,
        text: "Add a provider",
        to: screenPath("providers", { action: "create" }),
      },
      {
        done: setup.has_keys,
        text: "Create an API key for your clients",
        to: screenPath("keys", { action: "create" }),
      },
      { done: setup.has_requests, text: "Send a first request (see Tools)", to: screenPath("tools") },
    ];
    const setupDone = steps.every((s) => s.done);
    const cooldowns = d.cooldown_count;
    return html`<div class="stack">
      <div class="grid-stats">
        <gw-stat label="Total requests" .value=${formatInt(totals.requests)} .hint=${`${
      formatInt(today.requests)
    } today`}></gw-stat>
        <gw-stat label="Input tokens" .value=${formatCompact(totals.input_tokens)} .hint=${`${
      formatCompact(today.input_tokens)
    } today`}></gw-stat>
        <gw-stat label="Output tokens" .value=${formatCompact(totals.output_tokens)} .hint=${`${
      formatCompact(today.output_tokens)
    } today`}></gw-stat>
        <gw-stat label="Cost today" .value=${formatCost(today.cost)} .hint=${`${
      formatCost(totals.cost)
    } all time`}></gw-stat>
        <gw-stat label="Providers" .value=${formatInt(d.provider_count)} .hint=${`enabled of ${
      formatInt(d.provider_total)
    }`}></gw-stat>
        <gw-stat label="Combos" .value=${formatInt(d.combo_count)} .hint=${`${
      formatInt(d.key_count)
    } active keys`}></gw-stat>
        <gw-stat label="In flight" .value=${formatInt(d.inflight)} hint="requests right now"></gw-stat>
        <gw-stat label="Cooldowns" .value=${formatInt(cooldowns)} .tone=${
      cooldowns > 0 ? "warn" : ""
    } hint="accounts resting"></gw-stat>
      </div>
      <div class="grid-2">
        <div class="card">
          <div class="card-head"><h2>Global budget</h2><a href=${
      screenPath("budgets")
    } class="small">Manage budgets</a></div>
          <div class="card-body">${
      budget
        ? html`
          <gw-meter .spent=${budget.spent_today} .limit=${budget.daily_limit} .warnPct=${budget.warn_pct}
            .status=${budget.status}></gw-meter>
        `
        : html`
          <p
            class="muted">No global budget is set, so spending is not capped. <a href=${screenPath(
              "budgets",
              { action: "create" },
            )}>Set a daily limit</a>.</p>
        `
    }</div>
        </div>
        <div class="card">
          <div class="card-head"><h2>${setupDone ? "Connect a client" : "Get started"}</h2></div>
          <div class="card-body">${
      setupDone
        ? html`
          <p class="muted small">Point OpenAI-compatible clients at this base URL:</p>
          <div class="endpoint"
            style="margin-top:8px"><code>${baseUrl}</code><gw-copy-button .text=${baseUrl}></gw-copy-button></div>
          <p class="small" style="margin-top:12px"><a href=${screenPath(
            "tools",
          )}>Per-client setup in Tools →</a></p>
        `
        : steps.map((s) =>
          html`<div class="check-item"><span class="tick ${s.done ? "done" : ""}">${icon("check", 13)}</span>
                <span class="text ${s.done ? "muted" : ""}">${s.text}</span>${
            s.done ? nothing : html`<a class="btn sm" href=${s.to}>Start</a>`
          }</div>`
        )
    }</div>
        </div>
      </div>
      <div class="card">
        <div class="card-head"><h2>Requests, last 14 days</h2><a class="small" href=${
      screenPath("analytics")
    }>Analytics →</a></div>
        <div class="card-body"><gw-bar-chart label="Requests per day" .height=${180}
          .points=${daily.map((x) => ({ label: x.date.slice(5), value: x.requests }))}
          .format=${(v: number) => formatCompact(v)}></gw-bar-chart></div>
      </div>
      ${
      topModels.length > 0
        ? html`
          <div class="card">
            <div class="card-head">
              <h2>Top models, last 30 days</h2>
            </div>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Model</th>
                    <th class="right">Requests</th>
                    <th class="right">Input tokens</th>
                    <th class="right">Output tokens</th>
                    <th class="right">Cost</th>
                  </tr>
                </thead>
                <tbody>${topModels.map((m) =>
                  html`
                    <tr>
                      <td class="mono">${m.key}</td>
                      <td class="right num">${formatInt(m.requests)}</td>
                      <td class="right num">${formatCompact(m.input_tokens)}</td>
                      <td class="right num">${formatCompact(m.output_tokens)}</td>
                      <td class="right num">${formatCost(m.cost)}</td>
                    </tr>
                  `
                )}</tbody>
              </table>
            </div>
          </div>
        `
        : nothing
    }
    </div>`;
  }
}
customElements.define("gw-overview-screen", GwOverviewScreen);
