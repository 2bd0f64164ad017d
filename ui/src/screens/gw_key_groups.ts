import { html, nothing } from "lit";
import type { GroupView } from "../../../src/features/groups/contract.ts";
import { call } from "../api/client.ts";
import { ChangedEvent } from "../lib/events.ts";
import { inputValue as value, splitList } from "../lib/form.ts";
import { icon } from "../lib/icons.ts";
import { FormScreen } from "./form_screen.ts";

interface GroupForm {
  id: number | null;
  name: string;
  rpm: string;
  tpm: string;
  parallel: string;
  models: string;
}

const EMPTY: GroupForm = { id: null, name: "", rpm: "", tpm: "", parallel: "", models: "" };

function limitValue(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

/** The Keys screen's key groups (teams, projects): their limits and model lists bound their keys. */
export class GwKeyGroups extends FormScreen<GroupForm> {
  static override properties = { ...FormScreen.properties, groups: { attribute: false } };
  declare groups: readonly GroupView[];

  constructor() {
    super();
    this.groups = [];
  }

  override render() {
    return html`
      <div class="card" style="margin-top:16px">
        <div class="card-head"><h3>Key groups</h3>
          <button class="sm" @click=${() => this.showForm({ ...EMPTY })}>${icon(
            "plus",
            14,
          )}New group</button></div>
        ${this.groups.length === 0
          ? html`<p class="small muted" style="padding:12px">No groups. A group gives its keys shared limits, a
            model list they may only narrow, and budgets of its own.</p>`
          : html`
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Group</th>
                    <th>Limits per key</th>
                    <th>Models</th>
                    <th class="right">Keys</th>
                    <th></th>
                  </tr>
                </thead>
                <tbody>${this.groups.map((g) =>
                  html`
                    <tr>
                      <td><b>${g.name}</b></td>
                      <td class="small">${[
                        g.rpm === null ? "" : `${g.rpm} rpm`,
                        g.tpm === null ? "" : `${g.tpm} tpm`,
                        g.max_parallel === null ? "" : `${g.max_parallel} at once`,
                      ].filter((t) => t !== "").join(" · ") || html`<span class="faint">none</span>`}</td>
                      <td class="small">${g.allowed_models.length === 0
                        ? "all models"
                        : g.allowed_models.join(", ")}</td>
                      <td class="right num">${g.keys}</td>
                      <td class="right nowrap">
                                    <button class="sm ghost" aria-label="Edit group ${g.name}" @click=${() =>
                                      this.edit(g)}>${icon("edit", 14)}Edit</button>
                                    <button class="sm ghost danger" aria-label="Delete group ${g
                                      .name}" @click=${() => this.deleteItem(g)}>${icon(
                                        "trash",
                                        14,
                                      )}</button></td>
                    </tr>
                  `
                )}</tbody>
              </table>
            </div>
          `}
      </div>
      ${this.dialog()}
    `;
  }

  private dialog() {
    const f = this.form;
    return html`
      <gw-dialog .open=${f !== null} heading=${f?.id ? "Edit group" : "New key group"}
        @gw-close=${() => (this.form = null)}>
            ${f
              ? html`<form id="group-form" class="stack" @submit=${this.submit} novalidate>
          ${this.formErrorBanner()}
          <gw-field label="Name" required .error=${this.fieldError("name")}>
            <input name="name" .value=${f.name} maxlength="100" @input=${(e: Event) =>
                this.patch({ name: value(e) })}>
          </gw-field>
          <div class="form-grid">
            <gw-field label="Requests / min" .error=${this.fieldError("rpm")}>
              <input name="rpm" type="number" min="1" .value=${f.rpm} @input=${(e: Event) =>
                this.patch({ rpm: value(e) })}></gw-field>
            <gw-field label="Tokens / min" .error=${this.fieldError("tpm")}>
              <input name="tpm" type="number" min="1" .value=${f.tpm} @input=${(e: Event) =>
                this.patch({ tpm: value(e) })}></gw-field>
            <gw-field label="At once" .error=${this.fieldError("max_parallel")}>
              <input name="max_parallel" type="number" min="1" .value=${f.parallel} @input=${(e: Event) =>
                this.patch({ parallel: value(e) })}></gw-field>
          </div>
          <gw-field label="Allowed models" .error=${
                this.fieldError("models")
              } hint="Empty allows every model">
            <textarea name="allowed_models" .value=${f.models} @input=${(e: Event) =>
                this.patch({ models: value(e) })}></textarea></gw-field>
        </form>`
              : nothing}
            ${this.formFooter("group-form", f?.id ? "Save group" : "Create group")}
          </gw-dialog>
    `;
  }

  private edit(g: GroupView): void {
    this.showForm({
      id: g.id,
      name: g.name,
      rpm: g.rpm === null ? "" : String(g.rpm),
      tpm: g.tpm === null ? "" : String(g.tpm),
      parallel: g.max_parallel === null ? "" : String(g.max_parallel),
      models: g.allowed_models.join("\n"),
    });
  }

  private readonly submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const f = this.form;
    if (!f || this.saving) return;
    const errors: Record<string, string> = {};
    if (f.name.trim() === "") errors.name = "Enter a name";
    const body = {
      name: f.name.trim(),
      rpm: limitValue(f.rpm),
      tpm: limitValue(f.tpm),
      max_parallel: limitValue(f.parallel),
      allowed_models: splitList(f.models),
    };
    const result = await this.saveForm(
      errors,
      ["name", "rpm", "tpm", "max_parallel", "models"],
      () => f.id ? call("POST /groups/:id", { params: { id: f.id }, body }) : call("POST /groups", { body }),
    );
    if (!result) return;
    this.toast(`Saved group ${body.name}`);
    this.dispatchEvent(new ChangedEvent());
  };

  private async deleteItem(g: GroupView): Promise<void> {
    const result = await call("DELETE /groups/:id", { params: { id: g.id } });
    if (result.ok) this.toast(`Deleted group ${g.name}; its keys stay, ungrouped`);
    else this.toast(result.message, "error");
    this.dispatchEvent(new ChangedEvent());
  }
}

customElements.define("gw-key-groups", GwKeyGroups);
