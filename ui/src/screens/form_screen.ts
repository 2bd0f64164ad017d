import { html, nothing, type PropertyDeclarations, type TemplateResult } from "lit";
import type { ApiResult, ApiSuccess } from "../api/client.ts";
import { ScreenBase } from "./screen_base.ts";

/**
 * A screen with one create / edit dialog: holds the draft `F`, its field errors, the form-level error and
 * the saving flag, and runs the validate → send → map server errors cycle. Not an element itself.
 */
export class FormScreen<F extends object> extends ScreenBase {
  static override properties: PropertyDeclarations = {
    form: { state: true },
    errors: { state: true },
    formError: { state: true },
    saving: { state: true },
  };
  declare form: F | null;
  declare errors: Record<string, string>;
  declare formError: string;
  declare saving: boolean;

  constructor() {
    super();
    this.form = null;
    this.errors = {};
    this.formError = "";
    this.saving = false;
  }

  /** Opens the dialog on a draft, clearing errors left from an earlier attempt. */
  protected showForm(form: F): void {
    this.form = form;
    this.errors = {};
    this.formError = "";
  }

  /**
   * Updates some fields of the open draft. The error shown under a changed field goes away (the user is
   * fixing it; the next save checks again); errors are keyed by the API's snake_case field names.
   */
  protected patch(change: Partial<F>): void {
    if (!this.form) return;
    this.form = { ...this.form, ...change };
    const changed = Object.keys(change).map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    if (changed.some((name) => this.errors[name])) {
      this.errors = Object.fromEntries(
        Object.entries(this.errors).filter(([name]) => !changed.includes(name)),
      );
    }
  }

  /** The error shown under a field ("" when none). */
  protected fieldError(name: string): string {
    return this.errors[name] ?? "";
  }

  /** `aria-invalid` for a field's control. */
  protected invalid(name: string): "true" | "false" {
    return this.errors[name] ? "true" : "false";
  }

  /** The banner for an error no single field explains. */
  protected formErrorBanner(): TemplateResult | typeof nothing {
    return this.formError ? html`<div class="form-error" role="alert">${this.formError}</div>` : nothing;
  }

  /** Cancel and submit buttons for a `gw-dialog` footer, submitting the form with id `formId`. */
  protected formFooter(formId: string, label: string): TemplateResult {
    return html`
      <button slot="footer" @click=${() => (this.form = null)}>Cancel</button>
      <button slot="footer" class="primary" type="submit" form=${formId}
        ?disabled=${this.saving}>${this.saving ? "Saving…" : label}</button>
    `;
  }

  /**
   * Shows the client-side `errors`, or, when there are none, sends; a failure puts the server's messages
   * beside the `known` fields (the rest in the banner), a success closes the dialog and is returned.
   */
  protected async saveForm<T>(
    errors: Record<string, string>,
    known: readonly string[],
    request: () => Promise<ApiResult<T>>,
  ): Promise<ApiSuccess<T> | null> {
    this.errors = errors;
    this.formError = "";
    if (Object.keys(errors).length > 0) return null;
    this.saving = true;
    const result = await request();
    this.saving = false;
    if (!result.ok) {
      const { fields, form } = this.fieldErrors(result, known);
      this.errors = fields;
      this.formError = form;
      return null;
    }
    this.form = null;
    return result;
  }
}
