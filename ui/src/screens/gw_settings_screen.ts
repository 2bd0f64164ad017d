import { css, html, nothing } from "lit";
import type { SettingsSection, SettingView } from "../../../src/features/settings/contract.ts";
import { API_BASE, call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { formatDateTime, formatRemaining } from "../lib/format.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

/** Settings: runtime settings table, YAML export (credentials as variables; plaintext after a warning), server info, reset. */
export class GwSettingsScreen extends ScreenBase {
  static override properties = {
    drafts: { state: true },
    errors: { state: true },
    exporting: { state: true },
    understood: { state: true },
    resetting: { state: true },
    resetError: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .key {
        font-family: var(--gw-mono);
        font-size: var(--gw-text-sm);
        font-weight: 600;
      }
      .desc {
        color: var(--gw-text-muted);
        font-size: var(--gw-text-xs);
        margin-top: 2px;
      }
      .editor {
        display: flex;
        gap: 6px;
        align-items: center;
        min-width: 200px;
      }
      .editor input:not(.switch),
      .editor select {
        max-width: 240px;
      }
      td {
        vertical-align: top;
      }
      .danger-zone {
        border-color: color-mix(in srgb, var(--gw-danger) 35%, var(--gw-border));
      }
      .stored {
        font-size: 10px;
      }
    `,
  ];
  declare drafts: Record<string, string>;
  declare errors: Record<string, string>;
  declare exporting: boolean;
  declare understood: boolean;
  declare resetting: boolean;
  declare resetError: string;
  private state = new StateController(this, "settings");

  constructor() {
    super();
    this.drafts = {};
    this.errors = {};
    this.exporting = false;
    this.understood = false;
    this.resetting = false;
    this.resetError = "";
  }

  protected override willUpdate(): void {
    const action = this.takeAction();
    if (action === "export") this.exporting = true;
    if (action === "reset") this.resetting = true;
  }

  override render() {
    return html`
      <gw-page-header heading="Settings"
        description="Runtime settings take effect immediately and are stored in the database.">
        <button @click=${() => ((this.exporting = true), (this.understood = false))}>${icon(
          "download",
        )}Export YAML</button>
      </gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))}
            ${this.exportDialog()} ${this.resetDialog()}
    `;
  }

  private body(d: SettingsSection) {
    const { settings, server } = d;
    return html`
      <div class="stack">
        <div class="card">
          <div class="table-wrap">
            <table data-testid="settings">
              <thead>
                <tr>
                  <th>Setting</th>
                  <th>Value</th>
                  <th>Default</th>
                </tr>
              </thead>
              <tbody>${settings.map((s) => this.row(s))}</tbody>
            </table>
          </div>
        </div>
        <div class="grid-2">
          <div class="card">
            <div class="card-head">
              <h2>Server</h2>
            </div>
            <div class="card-body">
              <dl class="facts">
                <dt>Version</dt>
                <dd>${server.version || "–"}</dd>
                <dt>Listening on</dt>
                <dd class="mono">${server.host}:${server.port}</dd>
                <dt>Config file</dt>
                <dd class="mono small">${server.config_path || "–"}</dd>
                <dt>Database</dt>
                <dd class="mono small">${server.db_path || "–"}</dd>
                <dt>Started</dt>
                <dd>${formatDateTime(server.started_at)}
                  <span class="faint">(up ${formatRemaining(server.uptime_s)})</span></dd>
              </dl>
            </div>
          </div>
          <div class="card danger-zone">
            <div class="card-head">
              <h2>Reset to defaults</h2>
            </div>
            <div class="card-body stack-sm">
              <p
                class="small muted">Deletes providers, combos, token saver settings and pricing overrides, then re-reads the YAML config file and seeds
                  from it. Keys, budgets, usage and logs are kept.</p>
              <div><button class="danger" @click=${() => ((this.resetting = true),
                (this.resetError = ""))}>Reset to defaults…</button></div>
            </div>
          </div>
        </div>
      </div>
    `;
  }

  private row(s: SettingView) {
    const { key, type } = s;
    const error = this.errors[key];
    const draft = this.drafts[key];
    const current = draft ?? String(s.value);
    let editor;
    if (type === "boolean") {
      editor = html`
        <input type="checkbox" class="switch" aria-label=${key} .checked=${s.value === true}
          @change=${(e: Event) => this.save(key, (e.target as HTMLInputElement).checked)}>
      `;
    } else if (type === "enum") {
      editor = html`<select aria-label=${key} @change=${(e: Event) =>
        this.save(key, (e.target as HTMLSelectElement).value)}>
        ${
        (s.options ?? []).map((o) => html`<option value=${o} ?selected=${o === s.value}>${o}</option>`)
      }</select>`;
    } else {
      editor = html`
        <input aria-label=${key} aria-invalid=${error ? "true" : "false"} .value=${current}
          type=${type === "integer" || type === "number" ? "number" : "text"} step=${type === "integer"
            ? "1"
            : "any"}
          @input=${(
            e: Event,
          ) => (this.drafts = { ...this.drafts, [key]: (e.target as HTMLInputElement).value })}
          @keydown=${(e: KeyboardEvent) => e.key === "Enter" && this.saveDraft(key, type)}>
                ${draft !== undefined && draft !== String(s.value)
                  ? html`<button class="sm primary" @click=${() => this.saveDraft(key, type)}>Save</button>`
                  : nothing}
      `;
    }
    return html`
      <tr data-setting=${key}>
        <td>
          <div class="key">${key}</div>
          <div class="desc">${s.description}</div>
        </td>
        <td><div class="editor">${editor}</div>${error
          ? html`<div class="error-text" role="alert">${error}</div>`
          : nothing}</td>
        <td class="small muted mono">${s.default === ""
          ? html`<span class="faint">empty</span>`
          : s.default}${s.stored
          ? html`
            <span class="badge stored" title="A value is stored in the database">set</span>
          `
          : nothing}</td>
      </tr>
    `;
  }

  private saveDraft(key: string, type: string): void {
    const raw = this.drafts[key] ?? "";
    if ((type === "integer" || type === "number") && (raw.trim() === "" || !Number.isFinite(Number(raw)))) {
      this.errors = { ...this.errors, [key]: "Enter a number" };
      return;
    }
    void this.save(key, type === "integer" || type === "number" ? Number(raw) : raw);
  }

  private async save(key: string, value: boolean | number | string): Promise<void> {
    const result = await call("POST /settings", { body: { [key]: value } });
    if (result.ok) {
      const { [key]: _drop, ...rest } = this.drafts;
      this.drafts = rest;
      this.errors = { ...this.errors, [key]: "" };
      this.toast(`Saved ${key}`);
    } else {
      this.errors = { ...this.errors, [key]: result.fields[key] ?? result.message };
    }
    await this.state.refresh();
  }

  private exportDialog() {
    return html`
      <gw-dialog .open=${this
        .exporting} heading="Export configuration" @gw-close=${() => (this.exporting = false)}>
        <div class="stack">
          <p>The YAML file names each provider's credential as an environment variable (<code>${"${ACCT_A_API_KEY}"}</code>);
            its header lists the variables to set before loading it.</p>
          <div
            class="warn-box">With plaintext credentials, the file contains every provider's API key. Store it like a password and never commit it.</div>
          <label class="check"><input type="checkbox" name="understood" .checked=${this.understood}
                @change=${(
                  e: Event,
                ) => (this.understood = (e.target as HTMLInputElement)
                  .checked)}>I understand the file contains plaintext credentials</label>
        </div>
        <button slot="footer" @click=${() => (this.exporting = false)}>Cancel</button>
        <a slot="footer" class="btn" href=${`${API_BASE}/export?include_secrets=true`} download="gateway-config.yaml"
          data-action="export-yaml-secrets"
          aria-disabled=${this.understood ? "false" : "true"} style=${this.understood
            ? ""
            : "pointer-events:none;opacity:.5"}
          @click=${() => setTimeout(() => (this.exporting = false), 0)}>${icon(
            "download",
          )}With plaintext credentials</a>
        <a slot="footer" class="btn primary" href=${`${API_BASE}/export`} download="gateway-config.yaml"
          data-action="export-yaml"
          @click=${() => setTimeout(() => (this.exporting = false), 0)}>${icon("download")}Download YAML</a>
      </gw-dialog>
    `;
  }

  private resetDialog() {
    return html`
      <gw-dialog .open=${this
        .resetting} heading="Reset to defaults?" @gw-close=${() => (this.resetting = false)}>
        <div class="stack-sm">
              <p>Providers, combos, token saver settings and pricing overrides are replaced with what the YAML config file says.</p>
              ${this.resetError
                ? html`<div class="form-error" role="alert">${this.resetError}</div>`
                : nothing}
            </div>
        <button slot="footer" @click=${() => (this.resetting = false)}>Cancel</button>
        <button slot="footer" class="danger-solid" @click=${this.reset}>Reset</button>
      </gw-dialog>
    `;
  }

  private readonly reset = async (): Promise<void> => {
    const result = await call("POST /reset");
    if (!result.ok) {
      this.resetError = result.message;
      return;
    }
    this.resetting = false;
    const seeded = result.data.seeded;
    this.toast(
      `Reset done: ${seeded.providers} provider(s), ${seeded.combos} combo(s) seeded from YAML`,
    );
    await this.state.refresh();
  };
}
customElements.define("gw-settings-screen", GwSettingsScreen);
