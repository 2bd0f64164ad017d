import { css, html, LitElement, type TemplateResult } from "lit";
import { sharedStyles } from "../styles/shared.ts";

/** Pretty-printed, colour-coded JSON; strings that hold JSON (request bodies) are expanded too. */
export class GwJsonView extends LitElement {
  static override properties = { value: { attribute: false } };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      pre {
        margin: 0;
        padding: var(--gw-space-3) var(--gw-space-4);
        background: var(--gw-surface-2);
        border: 1px solid var(--gw-border);
        border-radius: var(--gw-radius-sm);
        font-family: var(--gw-mono);
        font-size: 12px;
        line-height: 1.55;
        overflow: auto;
        max-height: 60vh;
        white-space: pre-wrap;
        word-break: break-word;
      }
      .k {
        color: var(--gw-accent);
      }
      .s {
        color: var(--gw-ok);
      }
      .n {
        color: var(--gw-warn);
      }
      .b {
        color: var(--gw-info);
      }
      .z {
        color: var(--gw-text-faint);
      }
    `,
  ];
  declare value: unknown;

  constructor() {
    super();
    this.value = null;
  }

  override render() {
    return html`<pre>${this.node(expand(this.value), 0)}</pre>`;
  }

  private node(value: unknown, depth: number): TemplateResult | string {
    const pad = "  ".repeat(depth + 1);
    const close = "  ".repeat(depth);
    if (value === null || value === undefined) return html`<span class="z">null</span>`;
    if (typeof value === "string") return html`<span class="s">${JSON.stringify(value)}</span>`;
    if (typeof value === "number") return html`<span class="n">${value}</span>`;
    if (typeof value === "boolean") return html`<span class="b">${value}</span>`;
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      return html`[\n${
        value.map((v, i) => html`${pad}${this.node(v, depth + 1)}${i < value.length - 1 ? "," : ""}\n`)
      }${close}]`;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    return html`{\n${
      entries.map(([k, v], i) =>
        html`${pad}<span class="k">${JSON.stringify(k)}</span>: ${this.node(v, depth + 1)}${
          i < entries.length - 1 ? "," : ""
        }\n`
      )
    }${close}}`;
  }
}

function expand(value: unknown): unknown {
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (
      (trimmed.startsWith("{") && trimmed.endsWith("}")) || (trimmed.startsWith("[") && trimmed.endsWith("]"))
    ) {
      try {
        return JSON.parse(trimmed);
      } catch {
        return value;
      }
    }
    return value;
  }
  if (Array.isArray(value)) return value.map(expand);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  }
  return value;
}

customElements.define("gw-json-view", GwJsonView);

declare global {
  interface HTMLElementTagNameMap {
    "gw-json-view": GwJsonView;
  }
}
