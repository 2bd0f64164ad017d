import { css, html, nothing } from "lit";
import type { ComboView } from "../../../src/features/combos/contract.ts";
import { call } from "../api/client.ts";
import { StateController } from "../api/state_controller.ts";
import { inputValue } from "../lib/form.ts";
import { icon } from "../lib/icons.ts";
import { sharedStyles } from "../styles/shared.ts";
import { FormScreen } from "./form_screen.ts";

interface ComboForm {
  id: string | null;
  name: string;
  models: string[];
  adding: string;
}

/** Combos: named model groups with ordered members (move up / down), create, edit, delete. */
export class GwCombosScreen extends FormScreen<ComboForm> {
  static override properties = {
    deleting: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .members {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: 6px;
      }
      .members li {
        display: flex;
        align-items: center;
        gap: 8px;
        padding: 6px 8px 6px 12px;
        border: 1px solid var(--gw-border);
        border-radius: var(--gw-radius-sm);
        background: var(--gw-surface-2);
      }
      .members li .pos {
        width: 20px;
        color: var(--gw-text-faint);
        font-size: var(--gw-text-xs);
        font-weight: 600;
      }
      .members li .name {
        flex: 1;
        font-family: var(--gw-mono);
        font-size: var(--gw-text-sm);
        overflow-wrap: anywhere;
      }
      .order {
        display: flex;
        flex-direction: column;
        gap: 4px;
      }
      .order-item {
        display: flex;
        align-items: center;
        gap: 8px;
        font-size: var(--gw-text-sm);
      }
      .order-item .n {
        width: 20px;
        height: 20px;
        border-radius: 50%;
        background: var(--gw-accent-soft);
        color: var(--gw-accent-soft-text);
        display: grid;
        place-items: center;
        font-size: 11px;
        font-weight: 700;
        flex: none;
      }
    `,
  ];
  declare deleting: ComboView | null;
  private state = new StateController(this, "combos");

  constructor() {
    super();
    this.deleting = null;
  }

  protected override willUpdate(): void {
    if (this.takeAction() === "create") this.openForm(null);
  }

  override render() {
    const d = this.state.data;
    return html`
      <gw-page-header heading="Combos"
        description="A combo is a model name clients can ask for; its members are tried in order.">
        <button class="primary" @click=${() => this.openForm(null)}>${icon("plus")}Create combo</button>
      </gw-page-header>
            ${this.frame(this.state, (data) => this.cards(data.combos, data.strategy))}
            ${this.formDialog(d?.models ?? [])} ${this.deleteDialog()}
    `;
  }

  private cards(combos: readonly ComboView[], strategy: string) {
    if (combos.length === 0) {
      return html`
        <div class="card">
          <gw-empty icon="combos" heading="No combos yet"
            text="Group models from different providers under one name, e.g. “best” → a strong model first and a cheaper one as fallback.">
                <button class="primary" @click=${() => this.openForm(null)}>${icon(
                  "plus",
                )}Create a combo</button></gw-empty>
        </div>
      `;
    }
    return html`
      <p class="small muted" style="margin-bottom:12px">Strategy for all combos: <b>${strategy ||
        "fallback"}</b> (change it in
            <a href="/dashboard/ui/settings">Settings</a>).</p>
      <div class="grid-cards">${combos.map((c) => {
        const { unroutable } = c;
        return html`
          <div class="card" data-combo=${c.name}>
            <div class="card-head"><h3 class="mono">${c.name}</h3>
                      ${unroutable.length
                        ? html`<span class="badge warn">${unroutable.length} unroutable</span>`
                        : html`<span class="badge ok">ready</span>`}</div>
            <div class="card-body">
              <div class="order">${c.models.map((m, i) =>
                html`
                  <div
                    class="order-item"><span class="n">${i +
                      1}</span><span class="mono">${m}</span>${unroutable.includes(m)
                      ? html`<span class="badge warn" title="No enabled provider has this prefix">no provider</span>`
                      : nothing}</div>
                `
              )}</div>
            </div>
            <div class="card-foot row"><button class="sm" @click=${() => this.openForm(c)}>${icon(
              "edit",
              14,
            )}Edit</button>
                      <span class="spacer"></span><button class="sm ghost danger" aria-label="Delete ${c
                        .name}" @click=${() => (this.deleting = c)}>${icon("trash", 14)}</button></div>
          </div>
        `;
      })}</div>
    `;
  }

  private formDialog(available: readonly string[]) {
    const f = this.form;
    return html`<gw-dialog .open=${f !== null} heading=${
      f?.id ? `Edit ${f.name}` : "Create combo"
    } @gw-close=${() => (this.form = null)}>
      ${
      f
        ? html`<form id="combo-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formErrorBanner()}
          <gw-field label="Name" required .error=${
          this.fieldError("name")
        } hint="What clients send as the model, e.g. best">
            <input name="name" .value=${f.name} aria-invalid=${this.invalid("name")} @input=${(e: Event) =>
          this.patch({ name: inputValue(e) })}>
          </gw-field>
          <gw-field label="Members, in priority order" .error=${this.fieldError("models")}>
            ${
          f.models.length === 0
            ? html`<p class="small faint">No members yet: add at least one below.</p>`
            : html`<ol class="members">${
              f.models.map((m, i) =>
                html`<li><span class="pos">${i + 1}</span><span class="name">${m}</span>
                <button type="button" class="icon sm ghost" aria-label="Move ${m} up" ?disabled=${
                  i === 0
                } @click=${() => this.move(i, -1)}>${icon("up", 14)}</button>
                <button type="button" class="icon sm ghost" aria-label="Move ${m} down" ?disabled=${
                  i === f.models.length - 1
                } @click=${() => this.move(i, 1)}>${icon("down", 14)}</button>
                <button type="button" class="icon sm ghost danger" aria-label="Remove ${m}" @click=${() =>
                  this.patch({ models: f.models.filter((_, j) => j !== i) })}>${icon("x", 14)}</button></li>`
              )
            }</ol>`
        }
          </gw-field>
          <div class="row">
            <input name="add_model" list="combo-models" placeholder="prefix/model" .value=${f.adding} style="flex:1"
              @input=${(e: Event) => this.patch({ adding: inputValue(e) })}
              @keydown=${(e: KeyboardEvent) => e.key === "Enter" && (e.preventDefault(), this.addMember())}>
            <datalist id="combo-models">${available.map((m) => html`<option value=${m}></option>`)}</datalist>
            <button type="button" @click=${this.addMember}>${icon("plus", 14)}Add</button>
          </div>
        </form>`
        : nothing
    }
      ${this.formFooter("combo-form", "Save combo")}
    </gw-dialog>`;
  }

  private deleteDialog() {
    return html`
      <gw-dialog .open=${this.deleting !==
        null} heading="Delete combo?" @gw-close=${() => (this.deleting = null)}>
        <p>Clients asking for <code>${this.deleting?.name}</code> will get an error afterwards.</p>
        <button slot="footer" @click=${() => (this.deleting = null)}>Cancel</button>
        <button slot="footer" class="danger-solid" @click=${this.deleteItem}>Delete combo</button>
      </gw-dialog>
    `;
  }

  private openForm(c: ComboView | null): void {
    this.showForm(
      c
        ? { id: String(c.id), name: c.name, models: [...c.models], adding: "" }
        : { id: null, name: "", models: [], adding: "" },
    );
  }

  private move(index: number, delta: number): void {
    if (!this.form) return;
    const models = [...this.form.models];
    const [item] = models.splice(index, 1);
    models.splice(index + delta, 0, item);
    this.patch({ models });
  }

  private readonly addMember = (): void => {
    const f = this.form;
    if (!f) return;
    const model = f.adding.trim();
    if (!model) return;
    if (/\s/.test(model)) {
      this.errors = { ...this.errors, models: "Model ids have no spaces" };
      return;
    }
    this.errors = { ...this.errors, models: "" };
    this.patch({ models: f.models.includes(model) ? f.models : [...f.models, model], adding: "" });
  };

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const errors: Record<string, string> = {};
    if (!/^\S+$/.test(f.name.trim())) errors.name = "Enter a name without spaces";
    if (f.models.length === 0) errors.models = "Add at least one member";
    const body = { name: f.name.trim(), models: f.models };
    const result = await this.saveForm(
      errors,
      ["name", "models"],
      () => f.id ? call("PUT /combos/:id", { params: { id: f.id }, body }) : call("POST /combos", { body }),
    );
    if (!result) return;
    this.toast(`Saved combo ${body.name}`);
    await this.state.refresh();
  };

  private readonly deleteItem = async (): Promise<void> => {
    const c = this.deleting;
    this.deleting = null;
    if (!c) return;
    const result = await call("DELETE /combos/:id", { params: { id: c.id } });
    if (result.ok) this.toast(`Deleted combo ${c.name}`);
    else this.toast(result.message, "error");
    await this.state.refresh();
  };
}

customElements.define("gw-combos-screen", GwCombosScreen);
