import { css, html, LitElement, nothing } from "lit";
import type { ProviderView } from "../../../src/features/providers/contract.ts";
import type { SigninFlow, SigninView } from "../../../src/features/signin/contract.ts";
import { call } from "../api/client.ts";
import { ToastEvent } from "../lib/events.ts";
import { inputValue } from "../lib/form.ts";
import { sharedStyles } from "../styles/shared.ts";

/** How often the dialog asks the gateway how a sign-in stands (the gateway polls the provider itself). */
const STATUS_POLL_MS = 1000;

/** The provider was connected (the screen refreshes its cards). */
export class ConnectedEvent extends Event {
  /** Event name. */
  static readonly type = "gw-connected";
  constructor(readonly providerId: string) {
    super(ConnectedEvent.type, { bubbles: true, composed: true });
  }
}

/**
 * Connect (sign in) a subscription provider: a device code to enter on the provider's page while the
 * gateway polls, or the provider's page opened in a new tab and the redirect address pasted back (which
 * works when the gateway runs on another machine). Closing the dialog cancels a sign-in in progress.
 */
export class GwConnectDialog extends LitElement {
  static override properties = {
    provider: { attribute: false },
    signin: { state: true },
    error: { state: true },
    pasted: { state: true },
    busy: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .code {
        font-family: var(--gw-mono);
        font-size: 1.8rem;
        letter-spacing: 0.12em;
        font-weight: 600;
      }
      .status {
        font-size: var(--gw-text-sm);
      }
      .ok {
        color: var(--gw-ok);
      }
      .bad {
        color: var(--gw-danger);
      }
      input {
        width: 100%;
      }
      a {
        overflow-wrap: anywhere;
      }
    `,
  ];
  declare provider: ProviderView | null;
  declare signin: SigninView | null;
  declare error: string;
  declare pasted: string;
  declare busy: boolean;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.provider = null;
    this.signin = null;
    this.error = "";
    this.pasted = "";
    this.busy = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopPolling();
  }

  protected override updated(changed: Map<string, unknown>): void {
    if (changed.has("provider") && this.provider && changed.get("provider") !== this.provider) {
      void this.start(this.provider.signin_flows[0]);
    }
  }

  override render() {
    const p = this.provider;
    return html`
      <gw-dialog .open=${p !== null} heading=${p ? `Connect ${p.id}` : "Connect"}
        @gw-close=${this.onClose}>
            ${p ? this.body(p) : nothing}
            <button slot="footer" @click=${this.onCloseButton}>${this.signin?.status === "succeeded"
              ? "Done"
              : "Cancel"}</button>
          </gw-dialog>
    `;
  }

  private body(p: ProviderView) {
    const s = this.signin;
    const others = p.signin_flows.filter((f) => f !== s?.flow);
    return html`<div class="stack">
      ${this.error ? html`<div class="form-error" role="alert">${this.error}</div>` : nothing}
      ${
      s === null ? (this.busy ? html`<p class="muted">Starting the sign-in…</p>` : nothing) : this.flowView(s)
    }
      ${
      s !== null && s.status !== "pending" && s.status !== "succeeded"
        ? html`<div><button class="primary" @click=${() => this.start(s.flow)}>Try again</button></div>`
        : nothing
    }
      ${
      others.length > 0 && s?.status !== "succeeded"
        ? html`<p class="small">${
          others.map((f) =>
            html`<button class="sm ghost" @click=${() => this.start(f)}>${
              f === "device" ? "Use a device code instead" : "Paste a redirect address instead"
            }</button>`
          )
        }</p>`
        : nothing
    }
    </div>`;
  }

  private flowView(s: SigninView) {
    if (s.status === "succeeded") {
      return html`<p class="status ok" role="status">Connected. The credential is stored; the provider can be called now.</p>`;
    }
    const ended = s.status !== "pending"
      ? html`<p class="status bad" role="status">Sign-in ${s.status}${s.message ? `: ${s.message}` : ""}</p>`
      : nothing;
    if (s.device) {
      const d = s.device;
      const link = d.verification_uri_complete ?? d.verification_uri;
      return html`
        <p>Open <a href=${link} target="_blank" rel="noopener noreferrer">${d
          .verification_uri}</a> and enter this code:</p>
        <div class="row"><span class="code" data-user-code>${d.user_code}</span>
          <gw-copy-button .text=${d.user_code} label="Copy code"></gw-copy-button></div>
        ${s.status === "pending"
          ? html`
            <p class="status muted"
              role="status">Waiting for approval… the gateway checks every ${d.interval_s} s${s.message
                ? ` (${s.message})`
                : ""}.</p>
          `
          : ended}
      `;
    }
    if (s.pkce) {
      return html`
        <p>1. <a href=${s.pkce
          .authorize_url} target="_blank" rel="noopener noreferrer" data-authorize>Open the provider's sign-in page</a> in a new tab and sign in.</p>
        <p>2. The browser then goes to <code>${s.pkce
          .redirect_uri}</code> (that page may not load; this is expected).
          Copy the whole address from the address bar, or the code the page shows, and paste it here:</p>
        <form class="stack-sm" @submit=${this.submit}>
          <input name="redirect_url" autocomplete="off" spellcheck="false" placeholder=${`${s.pkce.redirect_uri}?code=…`}
            .value=${this.pasted} ?disabled=${s.status !== "pending"} @input=${(
              e: Event,
            ) => (this.pasted = inputValue(e))}>
          <div><button class="primary" type="submit" ?disabled=${this.busy ||
            s.status !== "pending"}>Connect</button></div>
        </form>
        ${ended}
      `;
    }
    return ended;
  }

  private async start(flow: SigninFlow | undefined): Promise<void> {
    const p = this.provider;
    if (!p) return;
    await this.cancelOpen();
    this.signin = null;
    this.error = "";
    this.pasted = "";
    this.busy = true;
    const result = await call("POST /providers/:id/connect", {
      params: { id: p.id },
      body: flow ? { flow } : {},
    });
    this.busy = false;
    if (!result.ok) {
      this.error = result.message;
      return;
    }
    this.signin = result.data;
    if (result.data.device) this.poll();
  }

  private poll(): void {
    this.stopPolling();
    this.timer = setTimeout(async () => {
      const s = this.signin;
      const p = this.provider;
      if (!s || !p || s.status !== "pending") return;
      const result = await call("GET /providers/:id/connect/:signin", { params: { id: p.id, signin: s.id } });
      if (this.signin?.id !== s.id) return;
      if (result.ok) this.update_(result.data);
      else this.error = result.message;
      if (this.signin?.status === "pending") this.poll();
    }, STATUS_POLL_MS);
  }

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const s = this.signin;
    const p = this.provider;
    if (!s || !p || this.busy) return;
    this.busy = true;
    this.error = "";
    const result = await call("POST /providers/:id/connect/:signin/redirect", {
      params: { id: p.id, signin: s.id },
      body: { redirect_url: this.pasted },
    });
    this.busy = false;
    if (result.ok) return this.update_(result.data);
    this.error = result.message;
    // A failed exchange ends the attempt on the server; a bad paste leaves it open for another try.
    const now = await call("GET /providers/:id/connect/:signin", { params: { id: p.id, signin: s.id } });
    if (now.ok) this.signin = now.data;
  };

  private update_(view: SigninView): void {
    const was = this.signin?.status;
    this.signin = view;
    if (view.status === "succeeded" && was !== "succeeded") {
      this.dispatchEvent(new ToastEvent(`Connected ${view.provider_id}`));
      this.dispatchEvent(new ConnectedEvent(view.provider_id));
    }
  }

  private async cancelOpen(): Promise<void> {
    this.stopPolling();
    const s = this.signin;
    const p = this.provider;
    if (s && p && s.status === "pending") {
      await call("DELETE /providers/:id/connect/:signin", { params: { id: p.id, signin: s.id } });
    }
  }

  private readonly onCloseButton = (): void => {
    this.shadowRoot?.querySelector("gw-dialog")?.close();
  };

  private readonly onClose = async (): Promise<void> => {
    await this.cancelOpen();
    this.signin = null;
    this.error = "";
    this.provider = null;
    this.dispatchEvent(new Event("gw-connect-closed", { bubbles: true, composed: true }));
  };

  private stopPolling(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
customElements.define("gw-connect-dialog", GwConnectDialog);

declare global {
  interface HTMLElementTagNameMap {
    "gw-connect-dialog": GwConnectDialog;
  }
  interface HTMLElementEventMap {
    "gw-connected": ConnectedEvent;
  }
}
