import { html } from "lit";
import { StateController } from "../api/state_controller.ts";
import { inputValue as value } from "../lib/form.ts";
import { icon } from "../lib/icons.ts";
import { ingestResults, IngestScreen } from "./ingest_results.ts";

/** Add Keys: paste many keys (one per line) with an optional provider, base URL and label for all of them. */
export class GwInventoryAddScreen extends IngestScreen {
  static override properties = {
    ...IngestScreen.properties,
    text: { state: true },
    provider: { state: true },
    baseUrl: { state: true },
    label: { state: true },
    identify: { state: true },
  };
  declare text: string;
  declare provider: string;
  declare baseUrl: string;
  declare label: string;
  declare identify: boolean;
  private state = new StateController(this, "inventory");

  constructor() {
    super();
    this.text = "";
    this.provider = "";
    this.baseUrl = "";
    this.label = "";
    this.identify = false;
  }

  override render() {
    const providers = this.state.data?.known_providers ?? [];
    return html`
      <gw-page-header heading="Add Keys"
        description="Paste upstream keys, one per line. Each is stored sealed, deduplicated and checked in the background."></gw-page-header>
      <div class="stack">
        <form class="card stack" @submit=${this.submit} novalidate>
          ${this.errorBanner()}
          <gw-field label="Keys" required hint="One key per line; lines starting with # are skipped. OAuth blobs: use Import JSON.">
            <textarea name="keys" rows="8" class="mono" .value=${this
              .text} spellcheck="false" autocomplete="off"
              @input=${(e: Event) => (this.text = value(e))}></textarea>
          </gw-field>
          <div class="grid-2">
            <gw-field label="Provider" hint="Auto-detect guesses from each key's prefix; no key is sent anywhere to find out.">
              <select name="provider" .value=${this.provider} @change=${(
                e: Event,
              ) => (this.provider = value(e))}>
                <option value="">Auto-detect</option>
                ${providers.map((p) => html`<option value=${p.id}>${p.name} (${p.id})</option>`)}
              </select>
            </gw-field>
            <gw-field label="Base URL" hint="Optional: where these keys are used (custom or regional endpoints).">
              <input name="base_url" .value=${this.baseUrl} placeholder="https://api.example.com/v1"
                @input=${(e: Event) => (this.baseUrl = value(e))}>
            </gw-field>
          </div>
          <gw-field label="Label" hint="Optional, for all keys of this batch.">
            <input name="label" .value=${this.label} maxlength="200" @input=${(
              e: Event,
            ) => (this.label = value(e))}>
          </gw-field>
          <label class="check"><input type="checkbox" name="identify" .checked=${this.identify}
            @change=${(
              e: Event,
            ) => (this.identify = (e.target as HTMLInputElement).checked)}>Try keys whose provider
            cannot be told against the configured providers (sends each such key to them)</label>
          <div><button class="primary" type="submit" ?disabled=${this.busy || this.text.trim() === ""}>${icon(
            "plus",
          )}Add keys</button></div>
        </form>
        ${ingestResults(this.report)}
      </div>
    `;
  }

  private readonly submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const accepted = await this.submitKeys("POST /inventory/keys", {
      text: this.text,
      ...(this.provider ? { provider: this.provider } : {}),
      ...(this.baseUrl.trim() ? { base_url: this.baseUrl.trim() } : {}),
      ...(this.label.trim() ? { label: this.label.trim() } : {}),
      ...(this.identify ? { identify: true } : {}),
    });
    if (accepted) this.text = "";
  };
}
customElements.define("gw-inventory-add-screen", GwInventoryAddScreen);
