import { css, html, nothing } from "lit";
import type { RequestRowView } from "../../../src/features/request_logs/contract.ts";
import type { ToolsSection } from "../../../src/dashboard/contract/tools.ts";
import { call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { formatCost, formatInt, formatLatency } from "../lib/format.ts";
import {
  type AnswerSoFar,
  bodyStreams,
  buildBody,
  emptyAnswer,
  PLAYGROUND_FORMATS,
  type PlaygroundForm,
  type PlaygroundFormat,
  readPiece,
  requestPath,
  splitEvents,
} from "../lib/playground_wire.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

/** One run: what was sent, what came back, and what the request log says about it. */
interface Run {
  readonly path: string;
  readonly requestText: string;
  status: number;
  answer: AnswerSoFar;
  raw: string;
  warnings: string;
  latencyMs: number | null;
  ttftMs: number | null;
  done: boolean;
  /** The request's uid from `x-gateway-request-id`: its own row in the request log, whatever else runs. */
  requestId: string;
  /** The request's row in the request log (cost, account, server-side TTFT), once written. */
  row: RequestRowView | null;
  failure: string;
}

/** How often and how long to look for the request's row after the answer ended (the log writes in batches). */
const ROW_POLL_MS = 250;
const ROW_POLL_TRIES = 40;

/**
 * Playground: sends a request as the signed-in identity through the real model endpoints (allowlists,
 * budgets and limits apply; see docs/dashboard-api.md "The Playground on the data plane"), in any client
 * format, and shows the answer as it streams with its tokens, cost, serving account and timings. Opened
 * with `?log=<id>` it loads a logged request to replay.
 */
export class GwPlaygroundScreen extends ScreenBase {
  static override styles = [
    sharedStyles,
    css`
      .layout {
        display: grid;
        grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
        gap: 16px;
        align-items: start;
      }
      @media (max-width: 900px) {
        .layout {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      label.f {
        display: flex;
        flex-direction: column;
        gap: 4px;
        font-size: var(--gw-text-sm);
        color: var(--gw-text-muted);
      }
      textarea {
        font-family: var(--gw-mono);
        font-size: 12px;
        min-height: 64px;
      }
      textarea.body {
        min-height: 220px;
      }
      .answer {
        white-space: pre-wrap;
        min-height: 48px;
        padding: 10px 12px;
        background: var(--gw-surface-2);
        border: 1px solid var(--gw-border);
        border-radius: var(--gw-radius-sm);
      }
      .meta {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(140px, 1fr));
        gap: 8px;
        font-size: var(--gw-text-sm);
      }
      .meta span {
        display: block;
        color: var(--gw-text-muted);
        font-size: var(--gw-text-xs);
      }
      pre {
        margin: 0;
        max-height: 260px;
        overflow: auto;
        font-size: 12px;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
    `,
  ];
  static override properties = {
    form: { state: true },
    bodyText: { state: true },
    run: { state: true },
    formError: { state: true },
  };
  declare form: PlaygroundForm;
  /** The request body to send: written from the form, editable, or a logged request's body to replay. */
  declare bodyText: string;
  declare run: Run | null;
  declare formError: string;
  private models = new StateController(this, "tools");
  private loadedLog = "";
  /** The run being filled in; `run` is the copy the last render showed. */
  private live: Run | null = null;
  private abort: AbortController | null = null;

  constructor() {
    super();
    this.form = {
      format: "chat_completions",
      model: "",
      system: "",
      message: "Hello!",
      tools: "",
      stream: true,
      temperature: "",
      maxTokens: "",
    };
    this.bodyText = "";
    this.run = null;
    this.formError = "";
    this.rebuild();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.abort?.abort();
  }

  override willUpdate(): void {
    const log = this.params.get("log") ?? "";
    if (log !== "" && log !== this.loadedLog) {
      this.loadedLog = log;
      void this.loadLog(Number(log));
    }
  }

  override render() {
    return html`
      <gw-page-header heading="Playground"
        description="Ask any model or combo as yourself, through the normal data plane."></gw-page-header>
      ${this.frame(this.models, (d) => this.body(d))}
    `;
  }

  private body(d: ToolsSection) {
    const f = this.form;
    return html`<div class="layout">
      <div class="card"><div class="card-body stack-sm">
        <datalist id="pg-models">${d.models.map((m) => html`<option value=${m}></option>`)}</datalist>
        <label class="f">Model or combo
          <input name="model" list="pg-models" .value=${f.model} placeholder=${d.example_model}
            @input=${(e: Event) => this.set({ model: (e.target as HTMLInputElement).value })}></label>
        <label class="f">Send as
          <select name="format" @change=${(e: Event) =>
      this.set({ format: (e.target as HTMLSelectElement).value as PlaygroundFormat })}>
            ${
      PLAYGROUND_FORMATS.map((p) =>
        html`<option value=${p.id} ?selected=${p.id === f.format}>${p.label}</option>`
      )
    }
          </select></label>
        <label class="f">System prompt
          <textarea name="system" .value=${f.system}
            @input=${(e: Event) =>
      this.set({ system: (e.target as HTMLTextAreaElement).value })}></textarea></label>
        <label class="f">Message
          <textarea name="message" .value=${f.message}
            @input=${(e: Event) =>
      this.set({ message: (e.target as HTMLTextAreaElement).value })}></textarea></label>
        <label class="f">Tools (JSON array, in the chosen format's own shape)
          <textarea name="tools" .value=${f.tools} placeholder="[]"
            @input=${(e: Event) =>
      this.set({ tools: (e.target as HTMLTextAreaElement).value })}></textarea></label>
        <div class="row">
          <label class="check"><input type="checkbox" name="stream" .checked=${f.stream}
            @change=${(e: Event) =>
      this.set({ stream: (e.target as HTMLInputElement).checked })}> Stream</label>
          <label class="f">Temperature
            <input name="temperature" type="number" step="0.1" min="0" .value=${f.temperature}
              @input=${(e: Event) => this.set({ temperature: (e.target as HTMLInputElement).value })}></label>
          <label class="f">Max tokens
            <input name="max_tokens" type="number" min="1" .value=${f.maxTokens}
              @input=${(e: Event) => this.set({ maxTokens: (e.target as HTMLInputElement).value })}></label>
        </div>
        <label class="f">Request (sent as is; edit it, or replay a logged one)
          <textarea class="body" name="request" .value=${this.bodyText}
            @input=${(
      e: Event,
    ) => (this.bodyText = (e.target as HTMLTextAreaElement).value)}></textarea></label>
        ${this.formError ? html`<div class="form-error">${this.formError}</div>` : nothing}
        <div class="row">
          <!-- Sending is not a change to the gateway: a viewer may try the models its key allows. -->
          <button class="primary" data-read data-testid="pg-send" ?disabled=${
      this.run !== null && !this.run.done
    }
            @click=${() => void this.send()}>Send</button>
          ${
      this.run !== null && !this.run.done
        ? html`<button data-read @click=${() => this.abort?.abort()}>Stop</button>`
        : nothing
    }
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
          <div class="card-body muted">The answer shows here as it arrives.</div>
        </div>
      `;
    }
    const a = r.answer;
    const row = r.row;
    return html`
      <div class="card">
        <div class="card-body stack-sm" data-testid="pg-result">
            <div class="row"><span class="badge ${r.status >= 400
              ? "danger"
              : r.status === 0
              ? "info"
              : "ok"}"
              data-testid="pg-status">${r.status === 0 ? "sending…" : `HTTP ${r.status}`}</span>
              ${r.done ? nothing : html`<span class="muted">streaming…</span>`}</div>
            ${r.failure || a.error
              ? html`<div class="form-error" data-testid="pg-error">${r.failure || a.error}</div>`
              : nothing}
            <div class="answer" data-testid="pg-answer">${a.text}</div>
            ${a.reasoning
              ? html`
                <h3>Reasoning</h3>
                <div class="answer muted" data-testid="pg-reasoning">${a.reasoning}</div>
              `
              : nothing}
            ${a.toolCalls.length > 0
              ? html`
                <h3>Tool calls</h3>
                <ul data-testid="pg-tools">${a.toolCalls.map((c) =>
                  html`<li><code>${c.name}</code> <code>${c.arguments}</code></li>`
                )}</ul>
              `
              : nothing}
            <div class="meta">
              <div><span>Tokens in / out</span><b data-testid="pg-tokens">${formatInt(
                a.inputTokens ?? row?.input_tokens ?? 0,
              )} / ${formatInt(a.outputTokens ?? row?.output_tokens ?? 0)}</b></div>
              <div><span>Cost</span><b data-testid="pg-cost">${row
                ? formatCost(row.cost)
                : r.done
                ? "…"
                : "–"}</b></div>
              <div><span>Served by</span><b data-testid="pg-account">${row
                ? row.account_id || "–"
                : "…"}</b></div>
              <div><span>Latency</span>${r.latencyMs === null ? "–" : formatLatency(r.latencyMs)}</div>
              <div><span>Time to first token</span>${r.ttftMs === null
                ? "–"
                : formatLatency(r.ttftMs)}${row && row.ttft_ms >= 0
                ? html`
                  <span>gateway: ${formatLatency(row.ttft_ms)}</span>
                `
                : nothing}</div>
            </div>
            ${r.warnings
              ? html`<div><h3>Warnings</h3><code data-testid="pg-warnings">${r.warnings}</code></div>`
              : nothing}
            <h3>Raw request <span class="muted small">POST ${r.path}</span></h3>
            <pre data-testid="pg-raw-request">${r.requestText}</pre>
            <h3>Raw response</h3>
            <pre data-testid="pg-raw-response">${r.raw}</pre>
          </div>
      </div>
    `;
  }

  /** Changes the form and rewrites the request body from it. */
  private set(change: Partial<PlaygroundForm>): void {
    this.form = { ...this.form, ...change };
    this.rebuild();
  }

  private rebuild(): void {
    try {
      this.bodyText = JSON.stringify(buildBody(this.form), null, 2);
      this.formError = "";
    } catch (error) {
      this.formError = (error as Error).message;
    }
  }

  /** Loads a logged request (format, model and body) to replay it. */
  private async loadLog(id: number): Promise<void> {
    const result = await call("GET /request-logs/:id", { params: { id } });
    if (!result.ok) {
      this.formError = `Request log ${id} could not be opened: ${result.message}`;
      return;
    }
    const log = result.data.log;
    const format = PLAYGROUND_FORMATS.find((p) => p.id === log.client_format)?.id ?? "chat_completions";
    this.form = { ...this.form, format, model: log.model };
    this.bodyText = log.request_body;
    this.formError = log.request_truncated ? "The logged request was truncated; fix it before sending." : "";
    this.toast(`Request #${id} loaded: Send replays it`, "info");
  }

  private async send(): Promise<void> {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(this.bodyText);
    } catch (error) {
      this.formError = `The request is not valid JSON: ${(error as Error).message}`;
      return;
    }
    this.formError = "";
    const format = this.form.format;
    const model = typeof body.model === "string" && format !== "generate_content"
      ? body.model
      : this.form.model;
    const path = requestPath(format, model, this.form.stream);
    const stream = bodyStreams(format, body, path);
    const run: Run = {
      path,
      requestText: JSON.stringify(body, null, 2),
      status: 0,
      answer: emptyAnswer(),
      raw: "",
      warnings: "",
      latencyMs: null,
      ttftMs: null,
      done: false,
      requestId: "",
      row: null,
      failure: "",
    };
    this.live = run;
    this.touch(run);
    this.abort = new AbortController();
    const started = performance.now();
    try {
      const response = await fetch(path, {
        method: "POST",
        // The marker header lets the session cookie stand for an API key here (and only here).
        headers: { "content-type": "application/json", "x-gateway-playground": "1" },
        body: this.bodyText,
        signal: this.abort.signal,
      });
      run.status = response.status;
      run.warnings = response.headers.get("x-gateway-warnings") ?? "";
      run.requestId = response.headers.get("x-gateway-request-id") ?? "";
      this.touch(run);
      await this.readBody(response, format, stream && response.ok, run, started);
    } catch (error) {
      run.failure = (error as Error).name === "AbortError" ? "Stopped." : String(error);
    }
    run.latencyMs = performance.now() - started;
    run.done = true;
    this.touch(run);
    await this.findRow(run);
  }

  /** Reads the answer, folding each streamed event in as it arrives. */
  private async readBody(
    response: Response,
    format: PlaygroundFormat,
    stream: boolean,
    run: Run,
    started: number,
  ): Promise<void> {
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) return;
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (run.ttftMs === null && value.length > 0) run.ttftMs = performance.now() - started;
      run.raw += value;
      if (stream) {
        const { events, rest } = splitEvents(format, buffer + value);
        buffer = rest;
        for (const event of events) readPiece(format, event, run.answer);
        this.touch(run);
      }
    }
    if (stream) {
      for (const event of splitEvents(format, buffer + "\n").events) readPiece(format, event, run.answer);
      return;
    }
    try {
      readPiece(format, JSON.parse(run.raw), run.answer);
    } catch {
      run.failure ||= "The answer is not JSON";
    }
  }

  /** The request's row in the request log, by its uid: its cost, serving account and the gateway's timings. */
  private async findRow(run: Run): Promise<void> {
    if (run.requestId === "") return;
    for (let i = 0; i < ROW_POLL_TRIES && this.live === run && this.isConnected; i++) {
      const result = await call("GET /requests/:uid", { params: { uid: run.requestId } });
      if (result.ok) {
        run.row = result.data.request;
        this.touch(run);
        return;
      }
      // 404 until the batched writer has written the row; anything else will not get better.
      if (result.status !== 404) return;
      await new Promise((resolve) => setTimeout(resolve, ROW_POLL_MS));
    }
  }

  /** Re-renders after `run` changed in place, unless a newer run replaced it. */
  private touch(run: Run): void {
    if (this.live === run) this.run = { ...run };
  }
}

customElements.define("gw-playground-screen", GwPlaygroundScreen);
