import { css, html, nothing } from "lit";
import type { SaversSection, SaverStat } from "../../../src/features/settings/contract.ts";
import { call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { formatInt, formatPercent } from "../lib/format.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

interface SaverInfo {
  readonly id: "rtk" | "caveman" | "ponytail" | "headroom";
  readonly title: string;
  readonly text: string;
  readonly level?: boolean;
  readonly url?: boolean;
}

const SAVERS: readonly SaverInfo[] = [
  {
    id: "rtk",
    title: "RTK",
    text: "Shortens long tool results (logs, listings, build output) by dropping only repeats and progress " +
      "chatter, each drop marked; file reads and diffs reach the model whole.",
  },
  {
    id: "caveman",
    title: "Caveman",
    text: "Asks the model for terse answers, cutting output tokens.",
    level: true,
  },
  { id: "ponytail", title: "Ponytail", text: "Asks the model for minimal code in its answers.", level: true },
  {
    id: "headroom",
    title: "Headroom",
    text: "Sends prompts through an external Headroom compression service first.",
    url: true,
  },
];

/** Token Savers: the saver switches (the same settings as Settings) with their savings so far. */
export class GwSaversScreen extends ScreenBase {
  static override properties = { errors: { state: true }, urlDraft: { state: true } };
  static override styles = [
    sharedStyles,
    css`
      .saver .card-body {
        display: flex;
        flex-direction: column;
        gap: 12px;
      }
      .saver-head {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 12px;
      }
      .nums {
        display: flex;
        gap: 18px;
        font-size: var(--gw-text-sm);
        color: var(--gw-text-muted);
        flex-wrap: wrap;
      }
      .nums b {
        color: var(--gw-text);
        font-variant-numeric: tabular-nums;
      }
    `,
  ];
  declare errors: Record<string, string>;
  declare urlDraft: string | null;
  private state = new StateController(this, "savers", 15_000);

  constructor() {
    super();
    this.errors = {};
    this.urlDraft = null;
  }

  override render() {
    return html`
      <gw-page-header heading="Token Savers"
        description="Shrink prompts and answers before they reach the upstream. Each saver fails safe."></gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))}
    `;
  }

  private body(d: SaversSection) {
    const { settings, stats } = d;
    return html`<div class="grid-2">${
      SAVERS.map((s) => {
        const on = settings[`${s.id}_enabled` as const];
        const stat: Partial<SaverStat> = stats.find((x) => x.saver.toLowerCase().includes(s.id)) ?? {};
        const level = s.id === "caveman"
          ? settings.caveman_level
          : s.id === "ponytail"
          ? settings.ponytail_level
          : "";
        const key = `saver_${s.id}_enabled`;
        return html`
          <div class="card saver" data-saver=${s.id}>
            <div class="card-body">
                    <div class="saver-head"><h2>${s.title}</h2>
                      <label class="check"><input type="checkbox" class="switch" aria-label="${s
                        .title} on" .checked=${on}
                        @change=${(e: Event) =>
                          this.save(s.id, `${s.id}_enabled`, (e.target as HTMLInputElement).checked)}>${on
                          ? "On"
                          : "Off"}</label></div>
                    <p class="muted small">${s.text}</p>
                    ${s.level
                      ? html`<gw-field label="Level" .error=${this.errors[`${s.id}_level`] ?? ""}>
                <select @change=${(e: Event) =>
                        this.save(s.id, `${s.id}_level`, (e.target as HTMLSelectElement).value)}>
                  ${
                        ["lite", "full", "ultra"].map((l) =>
                          html`<option value=${l} ?selected=${level === l}>${l}</option>`
                        )
                      }
                </select></gw-field>`
                      : nothing}
                    ${s.url
                      ? html`
                        <gw-field label="Proxy URL" .error=${this.errors.headroom_url ??
                          ""} hint="e.g. http://127.0.0.1:8787">
                          <div class="row"><input type="url" style="flex:1" .value=${this.urlDraft ??
                            settings.headroom_url}
                                          @input=${(
                                            e: Event,
                                          ) => (this.urlDraft = (e.target as HTMLInputElement).value)}>
                                          <button class="sm" @click=${() =>
                                            this.save(
                                              "headroom",
                                              "headroom_url",
                                              this.urlDraft ?? settings.headroom_url,
                                            )}>Save</button></div>
                        </gw-field>
                      `
                      : nothing}
                    ${this.errors[key] ? html`<div class="error-text">${this.errors[key]}</div>` : nothing}
                    <div class="nums"><span><b>${formatInt(
                      stat.requests,
                    )}</b> requests</span><span><b>${stat.saved_pct === undefined
                      ? "–"
                      : formatPercent(stat.saved_pct)}</b> saved</span>${Number(stat.errors) > 0
                      ? html`<span><b>${formatInt(stat.errors)}</b> errors (passed through)</span>`
                      : nothing}</div>
                  </div>
          </div>
        `;
      })
    }</div>`;
  }

  private async save(saver: string, field: string, value: boolean | string): Promise<void> {
    const key = `saver_${field}`;
    const result = await call("POST /settings", { body: { [key]: value } });
    if (result.ok) {
      this.errors = { ...this.errors, [field]: "", [key]: "" };
      this.toast(`${saver} updated`);
      if (field === "headroom_url") this.urlDraft = null;
    } else {
      this.errors = { ...this.errors, [field]: result.fields[key] ?? result.message };
    }
    await this.state.refresh();
  }
}
customElements.define("gw-savers-screen", GwSaversScreen);
