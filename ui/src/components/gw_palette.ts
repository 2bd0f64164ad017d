import { css, html, LitElement, type PropertyValues } from "lit";
import { CloseEvent, ValueEvent } from "../lib/events.ts";
import { icon, type IconName } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";

/** One entry of the command palette. */
export interface PaletteCommand {
  readonly id: string;
  readonly title: string;
  readonly group: "Go to" | "Actions";
  readonly icon: IconName;
  readonly keywords?: string;
  readonly hint?: string;
}

/** Scores how well `query` matches `text` (subsequence with bonuses); -1 when it does not match. */
export function matchScore(query: string, text: string): number {
  const q = query.trim().toLowerCase();
  if (q === "") return 0;
  const t = text.toLowerCase();
  const direct = t.indexOf(q);
  if (direct >= 0) {
    return 1000 - direct * 2 - (t.length - q.length) * 0.1 +
      (direct === 0 || t[direct - 1] === " " ? 100 : 0);
  }
  let score = 0;
  let from = 0;
  let last = -2;
  for (const ch of q) {
    if (ch === " ") continue;
    const at = t.indexOf(ch, from);
    if (at < 0) return -1;
    score += at === last + 1 ? 8 : at === 0 || t[at - 1] === " " ? 6 : 1;
    last = at;
    from = at + 1;
  }
  return score;
}

/** Searchable list of screens and actions; emits ValueEvent<string> with the chosen id, CloseEvent on Esc. */
export class GwPalette extends LitElement {
  static override properties = {
    open: { type: Boolean, reflect: true },
    commands: { attribute: false },
    query: { state: true },
    active: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: none;
      }
      :host([open]) {
        display: block;
        position: fixed;
        inset: 0;
        z-index: 50;
      }
      .overlay {
        position: absolute;
        inset: 0;
        background: var(--gw-overlay);
        backdrop-filter: blur(2px);
      }
      .panel {
        position: relative;
        margin: 12vh auto 0;
        width: min(600px, calc(100vw - 24px));
        background: var(--gw-surface);
        border: 1px solid var(--gw-border);
        border-radius: var(--gw-radius-lg);
        box-shadow: var(--gw-shadow-lg);
        overflow: hidden;
        animation: pop 120ms ease-out;
      }
      .input {
        display: flex;
        align-items: center;
        gap: 10px;
        padding: 0 var(--gw-space-4);
        border-bottom: 1px solid var(--gw-border);
        color: var(--gw-text-faint);
      }
      .input input {
        border: none;
        box-shadow: none;
        height: 52px;
        font-size: var(--gw-text-lg);
        padding: 0;
        background: transparent;
      }
      .input input:focus-visible {
        box-shadow: none;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: var(--gw-space-2);
        max-height: min(420px, 60vh);
        overflow-y: auto;
      }
      .group {
        font-size: 11px;
        text-transform: uppercase;
        letter-spacing: 0.08em;
        color: var(--gw-text-faint);
        font-weight: 650;
        padding: 8px 10px 4px;
      }
      li.item {
        display: flex;
        align-items: center;
        gap: 10px;
        padding: 9px 10px;
        border-radius: 8px;
        cursor: pointer;
        color: var(--gw-text);
      }
      li.item[aria-selected="true"] {
        background: var(--gw-accent-soft);
        color: var(--gw-accent-soft-text);
      }
      li.item .hint {
        margin-left: auto;
        font-size: var(--gw-text-xs);
        color: var(--gw-text-faint);
      }
      .empty {
        padding: var(--gw-space-5);
        text-align: center;
        color: var(--gw-text-muted);
      }
      .foot {
        display: flex;
        gap: var(--gw-space-4);
        padding: 8px var(--gw-space-4);
        border-top: 1px solid var(--gw-border);
        font-size: var(--gw-text-xs);
        color: var(--gw-text-faint);
        background: var(--gw-surface-2);
      }
      kbd {
        font-family: var(--gw-mono);
        font-size: 11px;
        border: 1px solid var(--gw-border-strong);
        padding: 0 4px;
        border-radius: 4px;
      }
      @keyframes pop {
        from {
          transform: translateY(-6px);
          opacity: 0;
        }
      }
      @media (max-width: 640px) {
        .foot {
          display: none;
        }
        .panel {
          margin-top: 10px;
        }
      }
    `,
  ];
  declare open: boolean;
  declare commands: readonly PaletteCommand[];
  declare query: string;
  declare active: number;

  constructor() {
    super();
    this.open = false;
    this.commands = [];
    this.query = "";
    this.active = 0;
  }

  /** Commands matching the query, best first, grouped by kind. */
  filtered(): PaletteCommand[] {
    const scored = this.commands
      .map((c, i) => ({ c, i, s: matchScore(this.query, `${c.title} ${c.keywords ?? ""}`) }))
      .filter((x) => x.s >= 0);
    if (this.query.trim() !== "") scored.sort((a, b) => b.s - a.s || a.i - b.i);
    const order = ["Go to", "Actions"];
    return scored.map((x) => x.c).sort((a, b) =>
      this.query.trim() === "" ? order.indexOf(a.group) - order.indexOf(b.group) : 0
    );
  }

  override render() {
    const items = this.filtered();
    let lastGroup = "";
    return html`
      <div class="overlay" @click=${this.close}></div>
      <div class="panel" role="dialog" aria-modal="true" aria-label="Command palette">
        <div class="input">${icon("search", 18)}
                <input type="text" role="combobox" aria-expanded="true" aria-controls="results" aria-label="Search commands"
                  placeholder="Jump to a screen or run an action…" autocomplete="off" spellcheck="false"
                  .value=${this.query} @input=${this.onInput} @keydown=${this.onKey}>
              </div>
        <ul id="results" role="listbox">
                ${items.length === 0
                  ? html`<li class="empty">No screen or action matches “${this.query}”.</li>`
                  : items.map((c, i) => {
                    const header = c.group !== lastGroup && this.query.trim() === "";
                    lastGroup = c.group;
                    return html`
                      ${header ? html`<li class="group" role="presentation">${c.group}</li>` : null}
                                    <li class="item" role="option" id="cmd-${c.id}" data-command=${c.id}
                        aria-selected=${i === this.active ? "true" : "false"}
                        @mousemove=${() => (this.active = i)} @click=${() => this.choose(c)}>
                                      ${icon(c.icon)}<span>${c.title}</span>${c.hint
                                        ? html`<span class="hint">${c.hint}</span>`
                                        : null}
                                    </li>
                    `;
                  })}
              </ul>
        <div
          class="foot"><span><kbd>↑</kbd> <kbd>↓</kbd> to move</span><span><kbd>Enter</kbd> to run</span><span><kbd>Esc</kbd> to close</span></div>
      </div>
    `;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has("open") && !this.open) {
      // A focused input inside the hidden palette would make "/" look like typing.
      this.shadowRoot?.querySelector("input")?.blur();
    }
    if (changed.has("open") && this.open) {
      this.query = "";
      this.active = 0;
      void this.updateComplete.then(() => this.shadowRoot?.querySelector("input")?.focus());
    }
    if (changed.has("active")) {
      this.shadowRoot?.querySelector('li.item[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
    }
  }

  private onInput(event: Event): void {
    this.query = (event.target as HTMLInputElement).value;
    this.active = 0;
  }

  private onKey(event: KeyboardEvent): void {
    const items = this.filtered();
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        this.active = items.length === 0 ? 0 : (this.active + 1) % items.length;
        break;
      case "ArrowUp":
        event.preventDefault();
        this.active = items.length === 0 ? 0 : (this.active - 1 + items.length) % items.length;
        break;
      case "Enter": {
        event.preventDefault();
        const chosen = items[this.active];
        if (chosen) this.choose(chosen);
        break;
      }
      case "Escape":
        event.preventDefault();
        this.close();
        break;
    }
  }

  private choose(command: PaletteCommand): void {
    this.open = false;
    this.dispatchEvent(new ValueEvent(command.id));
  }

  private close(): void {
    this.open = false;
    this.dispatchEvent(new CloseEvent());
  }
}
customElements.define("gw-palette", GwPalette);

declare global {
  interface HTMLElementTagNameMap {
    "gw-palette": GwPalette;
  }
}
