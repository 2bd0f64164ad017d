import { html, nothing, type TemplateResult } from "lit";
import { call } from "../api/client.ts";
import { ScreenBase } from "./screen_base.ts";
import type {
  AddKeysInput,
  InventoryIngestReport as IngestReport,
} from "../../../src/features/inventory/contract.ts";

const tone: Readonly<Record<string, string>> = {
  registered: "ok",
  updated: "info",
  exists: "",
  unidentified: "warn",
  rejected: "danger",
};

/** The per-key results of a submission: counts, then one row per key (masked) with its reason. */
export function ingestResults(report: IngestReport | null): TemplateResult | typeof nothing {
  if (report === null) return nothing;
  const s = report.summary;
  return html`
    <div class="card" data-testid="ingest-results">
      <div class="card-head"><h2>Results</h2>
        <span class="small muted">${s.registered} registered · ${s.updated} updated · ${s
          .existed} already known ·
          ${s.unidentified} unidentified · ${s.rejected} rejected</span></div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Key</th>
              <th>Provider</th>
              <th>Label</th>
              <th>Result</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>${report.results.map((r) =>
            html`
              <tr>
                <td class="mono small">${r.key_masked}</td>
                <td>${r.provider_display_name ?? r.provider_id ?? html`<span class="faint">–</span>`}</td>
                <td>${r.label || html`<span class="faint">–</span>`}</td>
                <td><span class="badge ${tone[r.status] ?? ""}">${r.status}</span></td>
                <td class="small">${r.error ?? ""}</td>
              </tr>
            `
          )}</tbody>
        </table>
      </div>
    </div>
  `;
}

/** What Add Keys and Import JSON share: a busy flag, a form error, and the report of the last submission. */
export class IngestScreen extends ScreenBase {
  static override properties = {
    ...ScreenBase.properties,
    busy: { state: true },
    error: { state: true },
    report: { state: true },
  };
  declare busy: boolean;
  declare error: string;
  declare report: IngestReport | null;

  constructor() {
    super();
    this.busy = false;
    this.error = "";
    this.report = null;
  }

  /** Sends a submission; true when it was accepted (its report is then shown). */
  protected async submitKeys(
    ...[route, body]: ["POST /inventory/keys", AddKeysInput] | ["POST /inventory/import", unknown]
  ): Promise<boolean> {
    this.busy = true;
    this.error = "";
    const result = await call(route, { body });
    this.busy = false;
    if (!result.ok) {
      this.error = result.message;
      return false;
    }
    this.report = result.data;
    const s = result.data.summary;
    this.toast(`${s.registered} registered, ${s.existed} already known, ${s.rejected} rejected`);
    return true;
  }

  /** The form's error banner. */
  protected errorBanner(): TemplateResult | typeof nothing {
    return this.error ? html`<div class="form-error" role="alert">${this.error}</div>` : nothing;
  }
}
