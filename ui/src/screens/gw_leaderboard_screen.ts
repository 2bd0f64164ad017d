import { css, html } from "lit";
import type { LeaderboardRow } from "../../../src/dashboard/contract/usage.ts";
import { choice, QueryController } from "../api/query_controller.ts";
import { StateController } from "../api/state_controller.ts";
import type { SegmentOption } from "../components/gw_segmented.ts";
import type { ValueEvent } from "../lib/events.ts";
import { formatCompact, formatCost, formatInt, formatPercent } from "../lib/format.ts";
import { DAY_PERIODS } from "../lib/options.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

const SORTS: readonly SegmentOption[] = [
  { value: "tokens", label: "Tokens" },
  { value: "cost", label: "Cost" },
  { value: "requests", label: "Requests" },
];

const BY: readonly SegmentOption[] = [
  { value: "key", label: "Keys" },
  { value: "group", label: "Groups" },
];

/** Leaderboard: client keys (or their groups) ranked by tokens, cost or requests. */
export class GwLeaderboardScreen extends ScreenBase {
  static override styles = [
    sharedStyles,
    css`
      .controls {
        display: flex;
        gap: var(--gw-space-3);
        flex-wrap: wrap;
        margin-bottom: var(--gw-space-4);
      }
      .rank {
        width: 28px;
        height: 28px;
        border-radius: 50%;
        display: inline-grid;
        place-items: center;
        font-weight: 700;
        font-size: var(--gw-text-sm);
        background: var(--gw-surface-2);
      }
      .rank.r1 {
        background: #fbbf24;
        color: #3b2a00;
      }
      .rank.r2 {
        background: #cbd5e1;
        color: #1e293b;
      }
      .rank.r3 {
        background: #d6a274;
        color: #3a1f06;
      }
      .bar {
        height: 6px;
        border-radius: 999px;
        background: var(--gw-surface-3);
        overflow: hidden;
        min-width: 80px;
      }
      .bar span {
        display: block;
        height: 100%;
        background: var(--gw-chart-2);
      }
    `,
  ];
  private query = new QueryController(this, {
    sort: choice(SORTS, "tokens"),
    days: choice(DAY_PERIODS, "30"),
    by: choice(BY, "key"),
  });
  private state = new StateController(this, "leaderboard", 0, this.query);

  override render() {
    return html`
      <gw-page-header heading="Leaderboard" description="Which clients use the gateway most."></gw-page-header>
            <div class="controls">
        <gw-segmented label="Rank by" .options=${SORTS} .value=${this.query.value.sort}
          @gw-value=${(e: ValueEvent<unknown>) => this.query.set({ sort: String(e.value) })}></gw-segmented>
        <gw-segmented label="Period" .options=${DAY_PERIODS} .value=${this.query.value.days}
          @gw-value=${(e: ValueEvent<unknown>) => this.query.set({ days: String(e.value) })}></gw-segmented>
        <gw-segmented label="Rows" .options=${BY} .value=${this.query.value.by}
          @gw-value=${(e: ValueEvent<unknown>) => this.query.set({ by: String(e.value) })}></gw-segmented>
        <a class="btn sm" download href=${`/dashboard/api/usage/export?days=${this.query.value.days}&by=${this.query.value.by}`}>Export CSV</a>
      </div>
            ${this.frame(this.state, (d) => this.table(d.rows))}
    `;
  }

  private table(rows: readonly LeaderboardRow[]) {
    if (rows.length === 0) {
      return html`
        <div class="card">
          <gw-empty icon="leaderboard" heading="No clients to rank yet"
            text="Create API keys for your clients; once they send requests they are ranked here.">
                <a class="btn primary" href="/dashboard/ui/keys?action=create">Create a key</a></gw-empty>
        </div>
      `;
    }
    const metric = (r: LeaderboardRow) =>
      this.query.value.sort === "cost"
        ? r.cost
        : this.query.value.sort === "requests"
        ? r.requests
        : r.tokens;
    const top = Math.max(...rows.map(metric), 0);
    return html`
      <div class="card">
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>#</th>
                <th>Client</th>
                <th class="right">Requests</th>
                <th class="right">Tokens</th>
                <th class="right">Cost</th>
                <th class="right">Success</th>
                <th>Share</th>
              </tr>
            </thead>
            <tbody>${rows.map((r) => {
              const { rank } = r;
              return html`
                <tr>
                  <td><span class="rank r${rank}">${rank || "–"}</span></td>
                  <td><b>${r.key_name}</b></td>
                  <td class="right num">${formatInt(r.requests)}</td>
                  <td class="right num" title=${`${formatInt(r.input_tokens)} in · ${
                    formatInt(r.output_tokens)
                  } out`}>${formatCompact(r.tokens)}</td>
                  <td class="right num">${formatCost(r.cost)}</td>
                  <td class="right num">${r.requests === 0 ? "–" : formatPercent(r.success_pct)}</td>
                  <td>
                    <div class="bar"><span style="width:${top > 0
                      ? (metric(r) / top) * 100
                      : 0}%"></span></div>
                  </td>
                </tr>
              `;
            })}</tbody>
          </table>
        </div>
      </div>
    `;
  }
}
customElements.define("gw-leaderboard-screen", GwLeaderboardScreen);
