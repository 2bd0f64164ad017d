import type { ComboConfig } from "../../config/mod.ts";
import type { ComboRecord } from "../../storage/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField, notFound } from "../field_error.ts";

/** Combos: named model lists; a name must be unique and must not shadow a provider prefix. */
export class ComboService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** Every combo, in the store's order. */
  list(): ComboRecord[] {
    return this.#deps.store.combos.list();
  }

  /** The combo a reference names: its id, else its name; 404 when none. */
  get(ref: string): ComboRecord {
    const combo = this.list().find((c) => String(c.id) === ref || c.name === ref);
    if (!combo) throw notFound(`Combo "${ref}" does not exist`);
    return combo;
  }

  /** Adds a combo. */
  create(input: ComboConfig): ComboRecord {
    this.#checkName(input.name, null);
    const id = this.#deps.store.combos.create(input, this.#deps.now());
    this.#deps.reload();
    return this.get(String(id));
  }

  /** Renames a combo or replaces its models. */
  update(ref: string, changes: Partial<ComboConfig>): ComboRecord {
    const current = this.get(ref);
    const next = { name: changes.name ?? current.name, models: changes.models ?? current.models };
    if (next.name !== current.name) this.#checkName(next.name, current.id);
    this.#deps.store.combos.update(current.id, next, this.#deps.now());
    this.#deps.reload();
    return this.get(String(current.id));
  }

  /** Deletes a combo; 404 when none. */
  delete(ref: string): void {
    this.#deps.store.combos.delete(this.get(ref).id);
    this.#deps.reload();
  }

  #checkName(candidate: string, selfId: number | null): void {
    const { store } = this.#deps;
    if (store.combos.list().some((c) => c.name === candidate && c.id !== selfId)) {
      throw invalidField("name", `a combo named "${candidate}" already exists`, 409);
    }
    if (store.providers.list().some((p) => p.prefix === candidate)) {
      throw invalidField("name", `"${candidate}" is already a provider prefix`);
    }
  }
}
