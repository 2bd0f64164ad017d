import {
  type CSSResultGroup,
  html,
  LitElement,
  nothing,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from "lit";
import type { ApiFailure } from "../api/client.ts";
import type { StateSection, StateSections } from "../../../src/dashboard/contract/mod.ts";
import type { StateController } from "../api/state_controller.ts";
import { NavigateEvent, ToastEvent, type ToastKind } from "../lib/events.ts";
import { sharedStyles } from "../styles/shared.ts";
import { lockControls } from "../lib/read_only.ts";

/**
 * What every screen element shares: the URL query it was opened with (its view choices: QueryController),
 * toasts, navigation and the loading / error / alert frame around its content. Not an element itself.
 */
export class ScreenBase extends LitElement {
  static override properties: PropertyDeclarations = {
    params: { attribute: false },
    readOnly: { attribute: false },
  };
  static override styles: CSSResultGroup = [sharedStyles];
  declare params: URLSearchParams;
  /** Why this account may not change anything ("" for an administrator): the shell sets it for viewers. */
  declare readOnly: string;

  constructor() {
    super();
    this.params = new URLSearchParams();
    this.readOnly = "";
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.readOnly) lockControls(this.renderRoot, this.readOnly);
  }

  /** Shows a toast through the shell. */
  protected toast(message: string, kind: ToastKind = "success"): void {
    this.dispatchEvent(new ToastEvent(message, kind));
  }

  /** Navigates through the shell. */
  protected go(path: string): void {
    this.dispatchEvent(new NavigateEvent(path));
  }

  /** Returns and removes a one-shot `action` query parameter (palette actions such as create). */
  protected takeAction(): string | null {
    const action = this.params.get("action");
    if (action === null) return null;
    const url = new URL(location.href);
    url.searchParams.delete("action");
    history.replaceState(null, "", url.pathname + url.search);
    return action;
  }

  /** Alert banners, a load error, or a skeleton while loading; `body` renders once data arrived. */
  protected frame<S extends StateSection>(
    state: StateController<S>,
    body: (data: StateSections[S]) => TemplateResult | typeof nothing,
  ): TemplateResult {
    return html`
      <gw-alerts .alerts=${state.alerts}></gw-alerts>
      ${state.error && state.data === undefined
        ? html`
          <div class="card">
            <gw-empty icon="alert" heading="Could not load this screen"
              text=${`${state.error}${state.errorStatus ? ` (HTTP ${state.errorStatus})` : ""}`}>
                      <button data-read @click=${() => state.refresh()}>Try again</button></gw-empty>
          </div>
        `
        : state.data === undefined
        ? skeleton()
        : body(state.data)}
    `;
  }

  /** Field errors from a failed mutation, for a form to show beside its inputs. */
  protected fieldErrors(
    failure: ApiFailure,
    known: readonly string[],
  ): { fields: Record<string, string>; form: string } {
    const fields: Record<string, string> = {};
    for (const [name, message] of Object.entries(failure.fields)) {
      const key = known.find((k) =>
        k === name || name.endsWith(`.${k}`) || name.startsWith(`${k}.`) || name.startsWith(`${k}[`)
      );
      if (key) fields[key] = message;
    }
    const shown = Object.keys(fields).length > 0;
    return { fields, form: shown && Object.values(fields).includes(failure.message) ? "" : failure.message };
  }
}

function skeleton(): TemplateResult {
  return html`
    <div class="stack" aria-busy="true" aria-label="Loading">
      <div class="grid-stats">${[1, 2, 3, 4].map(() =>
        html`<div class="skeleton" style="height:92px"></div>`
      )}</div>
      <div class="skeleton" style="height:260px"></div>
    </div>
  `;
}
