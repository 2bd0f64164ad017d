import { css, html, nothing } from "lit";
import type { ToolCard, ToolsSection } from "../../../src/dashboard/contract/tools.ts";
import { StateController } from "../api/state_controller.ts";
import { sharedStyles } from "../styles/shared.ts";
import { ScreenBase } from "./screen_base.ts";

/** Tools: per-client cards with the environment variables and config snippets that point it here. */
export class GwToolsScreen extends ScreenBase {
  static override styles = [
    sharedStyles,
    css`
      .tool .card-body {
        display: flex;
        flex-direction: column;
        gap: 12px;
      }
      pre {
        margin: 0;
        padding: 10px 12px;
        background: var(--gw-surface-2);
        border: 1px solid var(--gw-border);
        border-radius: var(--gw-radius-sm);
        font-family: var(--gw-mono);
        font-size: 12px;
        line-height: 1.55;
        overflow-x: auto;
        white-space: pre;
      }
      .block-head {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
        margin-bottom: 6px;
      }
      .block-head span {
        font-size: var(--gw-text-xs);
        color: var(--gw-text-muted);
        font-weight: 600;
        text-transform: uppercase;
        letter-spacing: 0.05em;
      }
      ul {
        margin: 0;
        padding-left: 18px;
        color: var(--gw-text-muted);
        font-size: var(--gw-text-sm);
      }
      .urls {
        display: grid;
        grid-template-columns: auto minmax(0, 1fr) auto;
        gap: 8px 12px;
        align-items: center;
        font-size: var(--gw-text-sm);
      }
      .urls code {
        overflow-wrap: anywhere;
      }
      .block-head span {
        min-width: 0;
        overflow-wrap: anywhere;
      }
      @media (max-width: 640px) {
        .urls {
          grid-template-columns: minmax(0, 1fr) auto;
        }
        .urls .muted {
          grid-column: 1 / -1;
          margin-top: 4px;
        }
      }
    `,
  ];
  static override properties = {
    pastedKey: { state: true },
    pickedModel: { state: true },
  };
  /** The key pasted to fill every card; kept in this page only, never stored or sent. */
  declare pastedKey: string;
  /** The model picked for every card ("" keeps the example model). */
  declare pickedModel: string;
  private state = new StateController(this, "tools");

  constructor() {
    super();
    this.pastedKey = "";
    this.pickedModel = "";
  }

  override render() {
    return html`
      <gw-page-header heading="Tools"
        description="Point coding assistants and SDKs at this gateway."></gw-page-header>
            ${this.frame(this.state, (d) => this.body(d))}
    `;
  }

  private body(d: ToolsSection) {
    const base = d.base_url;
    const v1 = d.base_url_v1;
    const { cards } = d;
    const needsKey = d.require_api_key;
    return html`<div class="stack">
      <div class="card"><div class="card-body stack-sm">
        <div class="urls">
          <span class="muted">OpenAI-style clients</span><code>${v1}</code><gw-copy-button .text=${v1}></gw-copy-button>
          <span class="muted">Anthropic, Gemini, Ollama</span><code>${base}</code><gw-copy-button .text=${base}></gw-copy-button>
        </div>
        <p class="small muted">${
      needsKey
        ? html`
          API keys are required: create one on <a
            href="/dashboard/ui/keys">API Keys</a> and use it where the snippets say <code>${d
              .key_placeholder}</code>.
        `
        : html`API keys are not required right now; clients may send any placeholder key. Model ids look like <code>${d.example_model}</code>.`
    }</p>
      </div></div>
      ${this.fillCard(d)}
      ${
      cards.length === 0
        ? html`
          <div class="card">
            <gw-empty icon="tools" heading="No client cards"
              text="This gateway did not list any client setups."></gw-empty>
          </div>
        `
        : html`<div class="grid-2">${cards.map((c) => this.card(personalize(c, this.fill(d))))}</div>`
    }
    </div>`;
  }

  /** One key field and one model picker that fill every card below. */
  private fillCard(d: ToolsSection) {
    return html`
      <div class="card">
        <div class="card-body form-grid" data-fill>
            ${d.require_api_key
              ? html`
                <gw-field label="Your API key" hint="Fills every card below; stays in this page, never stored">
                  <input name="tool_key" type="password" autocomplete="off" .value=${this.pastedKey}
                    placeholder=${d.key_placeholder} @input=${(
                      e: Event,
                    ) => (this.pastedKey = (e.target as HTMLInputElement).value.trim())}>
                </gw-field>
              `
              : nothing}
            <gw-field label="Model" hint="A gateway model id or combo, written into every card">
              <select name="tool_model" @change=${(
                e: Event,
              ) => (this.pickedModel = (e.target as HTMLSelectElement).value)}>
                ${(d.models.includes(d.example_model) ? d.models : [d.example_model, ...d.models]).map((m) =>
                  html`<option value=${m} ?selected=${
                    m === (this.pickedModel || d.example_model)
                  }>${m}</option>`
                )}
              </select>
            </gw-field>
          </div>
      </div>
    `;
  }

  /** What the cards' placeholders become: the pasted key and the picked model. */
  private fill(d: ToolsSection): Fill {
    return {
      ...(d.require_api_key && this.pastedKey !== "" ? { key: [d.key_placeholder, this.pastedKey] } : {}),
      ...(this.pickedModel !== "" && this.pickedModel !== d.example_model
        ? { model: [d.example_model, this.pickedModel] }
        : {}),
    };
  }

  private card(c: ToolCard) {
    const { env, snippet } = c;
    const envText = env.map((e) => `export ${e.name}=${shellQuote(e.value)}`).join("\n");
    const { notes } = c;
    return html`
      <div class="card tool" data-tool=${c.id}>
        <div class="card-head"><h2>${c.title}</h2><span class="badge accent">${c.protocol}</span></div>
        <div class="card-body">
              ${env.length > 0
                ? html`
                  <div>
                    <div class="block-head"><span>Environment</span><gw-copy-button .text=${envText}></gw-copy-button></div>
                    <pre>${envText}</pre>
                  </div>
                `
                : nothing}
              ${snippet
                ? html`
                  <div>
                    <div class="block-head"><span>${snippet.path ||
                      snippet.language}</span>
                              <gw-copy-button .text=${snippet.content}></gw-copy-button></div>
                    <pre>${snippet.content}</pre>
                  </div>
                `
                : nothing}
              ${notes.length > 0 ? html`<ul>${notes.map((n) => html`<li>${n}</li>`)}</ul>` : nothing}
            </div>
      </div>
    `;
  }
}

/** Placeholder → value pairs the screen writes into every card. */
interface Fill {
  readonly key?: readonly [string, string];
  readonly model?: readonly [string, string];
}

/** A card with the pasted key and the picked model in place of the placeholders it was written with. */
function personalize(card: ToolCard, fill: Fill): ToolCard {
  const swaps = [fill.key, fill.model].filter((s): s is readonly [string, string] => s !== undefined);
  if (swaps.length === 0) return card;
  const apply = (text: string) => swaps.reduce((t, [from, to]) => t.replaceAll(from, to), text);
  return {
    ...card,
    env: card.env.map((e) => ({ ...e, value: apply(e.value) })),
    snippet: card.snippet ? { ...card.snippet, content: apply(card.snippet.content) } : null,
  };
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]*$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;
}

customElements.define("gw-tools-screen", GwToolsScreen);
