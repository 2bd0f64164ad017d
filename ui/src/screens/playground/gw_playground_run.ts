import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { RequestRowView } from "../../../../src/features/request_logs/contract.ts";
import { formatCost, formatInt, formatLatency } from "../../lib/format.ts";
import { sharedStyles } from "../../styles/shared.ts";
import { type AnyKindModule, field, jsonOf, type KindAnswer } from "./request_kind.ts";
import { requestRow } from "./request_row.ts";
import { playgroundStyles } from "./styles.ts";

/** One request of a kind other than chat: what was sent, what came back, and its request-log row. */
interface KindRun {
  readonly path: string;
  readonly shown: string;
  /** The form it was sent from (some kinds show units of the request: characters of speech). */
  readonly form: object;
  answer: KindAnswer;
  latencyMs: number | null;
  requestId: string;
  warnings: string;
  row: RequestRowView | null;
  failure: string;
}

/** Content types shown as text; anything else (audio) is kept as bytes behind an object URL. */
const TEXT_TYPES = /^(application\/json|text\/|application\/x-ndjson)/;

/** The message of an error answer in any of the gateway's envelopes (OpenAI, Cohere, the spec's `detail`). */
function errorMessage(text: string): string {
  const json = jsonOf(text);
  const nested = field(field(json, "error"), "message");
  const message = nested ?? field(json, "message") ?? field(json, "detail") ?? field(json, "error");
  return typeof message === "string" ? message : text || "The request failed with no body";
}

/**
 * The Playground for one request kind besides chat (embeddings, images, speech, transcription, translation,
 * rerank, legacy completions): the kind's form, Send through the real data plane as the signed-in identity
 * (`x-gateway-playground: 1`, same origin), and the answer with its tokens or units, cost, serving account,
 * latency and the raw request and response. The kind's own module writes the request and shows the answer.
 */
export class GwPlaygroundRun extends LitElement {
  static override styles = [sharedStyles, playgroundStyles];
  static override properties = {
    module: { attribute: false },
    model: { attribute: false },
    form: { state: true },
    run: { state: true },
    formError: { state: true },
  };
  declare module: AnyKindModule;
  declare model: string;
  declare form: object;
  declare run: KindRun | null;
  declare formError: string;
  /** The run being filled in; `run` is the copy the last render showed. */
  private live: KindRun | null = null;
  private abort: AbortController | null = null;

  constructor() {
    super();
    this.model = "";
    this.form = {};
    this.run = null;
    this.formError = "";
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("module")) {
      this.form = this.module.initial();
      this.formError = "";
      this.forget();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.forget();
  }

  override render() {
    const busy = this.run !== null && this.run.answer.done === false;
    return html`<div class="layout">
      <div class="card"><div class="card-body stack-sm">
        ${this.module.fields(this.form, (change) => (this.form = { ...this.form, ...change }))}
        ${
      this.formError
        ? html`<div class="form-error" data-testid="pg-form-error">${this.formError}</div>`
        : nothing
    }
        <div class="row">
          <button class="primary" data-read data-testid="pg-send" ?disabled=${busy}
            @click=${() => void this.send()}>Send</button>
          ${busy ? html`<button data-read @click=${() => this.abort?.abort()}>Stop</button>` : nothing}
        </div>
      </div></div>
      ${this.result()}
    </div>`;
  }

  private result() {
    const r = this.run;
    if (r === null) {
      return html`
        <div class="card">
          <div class="card-body muted">The answer shows here.</div>
        </div>
      `;
    }
    const a = r.answer;
    const ok = a.status > 0 && a.status < 400;
    const view = ok && r.failure === "" ? this.module.view(a, r.form) : null;
    const error = r.failure || (a.status >= 400 && a.done ? errorMessage(a.text) : "");
    const row = r.row;
    return html`
      <div class="card">
        <div class="card-body stack-sm" data-testid="pg-result">
            <div class="row"><span class="badge ${a.status >= 400
              ? "danger"
              : a.status === 0
              ? "info"
              : "ok"}"
              data-testid="pg-status">${a.status === 0 ? "sending…" : `HTTP ${a.status}`}</span>
              ${a.done ? nothing : html`<span class="muted">receiving…</span>`}</div>
            ${error ? html`<div class="form-error" data-testid="pg-error">${error}</div>` : nothing}
            ${view?.content ?? nothing}
            <div class="meta">
              <div><span>Tokens in / out</span><b data-testid="pg-tokens">${row
                ? `${formatInt(row.input_tokens)} / ${formatInt(row.output_tokens)}`
                : "…"}</b></div>
              ${view?.units
                ? html`<div><span>Units</span><b data-testid="pg-units">${view.units}</b></div>`
                : nothing}
              <div><span>Cost</span><b data-testid="pg-cost">${row
                ? formatCost(row.cost)
                : a.done
                ? "…"
                : "–"}</b></div>
              <div><span>Served by</span><b data-testid="pg-account">${row
                ? row.account_id || "–"
                : "…"}</b></div>
              <div><span>Latency</span>${r.latencyMs === null ? "–" : formatLatency(r.latencyMs)}</div>
            </div>
            ${r.warnings
              ? html`<div><h3>Warnings</h3><code data-testid="pg-warnings">${r.warnings}</code></div>`
              : nothing}
            <h3>Raw request <span class="muted small">POST ${r.path}</span></h3>
            <pre data-testid="pg-raw-request">${r.shown}</pre>
            <h3>Raw response</h3>
            <pre data-testid="pg-raw-response">${a.blobUrl
              ? `(${a.contentType || "binary"}, ${formatInt(a.bytes)} bytes)`
              : a.text}</pre>
          </div>
      </div>
    `;
  }

  private async send(): Promise<void> {
    let request;
    try {
      if (this.model === "") throw new Error("Pick a model or combo");
      request = this.module.request(this.form, this.model);
    } catch (error) {
      this.formError = (error as Error).message;
      return;
    }
    this.formError = "";
    this.forget();
    const run: KindRun = {
      path: request.path,
      shown: request.shown,
      form: this.form,
      answer: { status: 0, contentType: "", text: "", blobUrl: "", bytes: 0, done: false },
      latencyMs: null,
      requestId: "",
      warnings: "",
      row: null,
      failure: "",
    };
    this.live = run;
    this.touch(run);
    const abort = new AbortController();
    this.abort = abort;
    const started = performance.now();
    try {
      const response = await fetch(request.path, {
        method: "POST",
        // The marker header lets the session cookie stand for an API key on the data plane (and only there).
        headers: {
          "x-gateway-playground": "1",
          ...(typeof request.body === "string" ? { "content-type": "application/json" } : {}),
        },
        body: request.body,
        signal: abort.signal,
      });
      run.requestId = response.headers.get("x-gateway-request-id") ?? "";
      run.warnings = response.headers.get("x-gateway-warnings") ?? "";
      await this.read(response, run);
    } catch (error) {
      run.failure = (error as Error).name === "AbortError" ? "Stopped." : String(error);
    }
    run.latencyMs = performance.now() - started;
    run.answer = { ...run.answer, done: true };
    this.touch(run);
    run.row = await requestRow(run.requestId, () => this.live === run && this.isConnected);
    this.touch(run);
  }

  /** Reads the answer: text as it arrives (a streamed completion grows), anything else as bytes. */
  private async read(response: Response, run: KindRun): Promise<void> {
    const contentType = response.headers.get("content-type") ?? "";
    run.answer = { ...run.answer, status: response.status, contentType };
    this.touch(run);
    if (response.ok && !TEXT_TYPES.test(contentType)) {
      const blob = await response.blob();
      run.answer = { ...run.answer, blobUrl: URL.createObjectURL(blob), bytes: blob.size };
      return;
    }
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) return;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      run.answer = { ...run.answer, text: run.answer.text + value, bytes: run.answer.bytes + value.length };
      this.touch(run);
    }
  }

  /** Stops the run in flight and frees its audio. */
  private forget(): void {
    this.abort?.abort();
    const url = this.live?.answer.blobUrl;
    if (url) URL.revokeObjectURL(url);
    this.live = null;
    this.run = null;
  }

  /** Re-renders after `run` changed in place, unless a newer run replaced it. */
  private touch(run: KindRun): void {
    if (this.live === run) this.run = { ...run };
  }
}

customElements.define("gw-playground-run", GwPlaygroundRun);
