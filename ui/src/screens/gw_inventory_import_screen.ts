import { html } from "lit";
import { inputValue as value } from "../lib/form.ts";
import { icon } from "../lib/icons.ts";
import { ingestResults, IngestScreen } from "./ingest_results.ts";

/** Import JSON: an inventory export (ours or the origin's), a peer's connections file, or an OAuth blob. */
export class GwInventoryImportScreen extends IngestScreen {
  static override properties = {
    ...IngestScreen.properties,
    text: { state: true },
  };
  declare text: string;

  constructor() {
    super();
    this.text = "";
  }

  override render() {
    return html`
      <gw-page-header heading="Import JSON"
        description="Import keys from an inventory export, a bare array of keys, a {&quot;providerConnections&quot;: …} file or one OAuth credential."></gw-page-header>
      <div class="stack">
        <form class="card stack" @submit=${this.submit} novalidate>
          ${this.errorBanner()}
          <gw-field label="File" hint="Read in the browser; only its JSON is sent.">
            <input type="file" name="file" accept=".json,application/json" @change=${this.pick}>
          </gw-field>
          <gw-field label="JSON" hint="Or paste the document here.">
            <textarea name="json" rows="10" class="mono" spellcheck="false" autocomplete="off" .value=${this
              .text}
              @input=${(e: Event) => (this.text = value(e))}></textarea>
          </gw-field>
          <div><button class="primary" type="submit" ?disabled=${this.busy || this.text.trim() === ""}>${icon(
            "inventory-import",
          )}Import</button></div>
        </form>
        ${ingestResults(this.report)}
      </div>
    `;
  }

  private readonly pick = async (e: Event): Promise<void> => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (file) this.text = await file.text();
  };

  private readonly submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    this.error = "";
    let doc: unknown;
    try {
      doc = JSON.parse(this.text);
    } catch (error) {
      this.error = `Not valid JSON: ${(error as Error).message}`;
      return;
    }
    if (await this.submitKeys("POST /inventory/import", doc)) this.text = "";
  };
}
customElements.define("gw-inventory-import-screen", GwInventoryImportScreen);
