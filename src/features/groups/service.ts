/** Key groups (teams, projects): their limits and allowlist bound their keys, which may only narrow them. */
import type { KeyGroupRecord, KeyLimits } from "../../storage/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { notFound } from "../field_error.ts";
import { validateAllowedModels, validateKeyName, validateLimits } from "../keys/service.ts";

/** What defines a group; on update every field is optional (a limit of null clears it). */
export interface GroupInput {
  readonly name: string;
  readonly limits?: Partial<KeyLimits>;
  readonly allowedModels?: readonly string[];
}

/** A group name follows the key names' rule: 1–100 printable characters. */
const validateGroupName = validateKeyName;

/** Creates, changes and deletes key groups; every change reloads the gateway's limits. */
export class GroupService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** Every group by name. */
  list(): KeyGroupRecord[] {
    return this.#deps.store.keyGroups.list();
  }

  /** The group a reference names: its id, else its name. */
  find(ref: string): KeyGroupRecord | undefined {
    const groups = this.#deps.store.keyGroups;
    return (/^\d+$/.test(ref) ? groups.get(Number(ref)) : undefined) ?? groups.findByName(ref);
  }

  /** Creates a group (409 when the name is taken). */
  create(input: GroupInput): KeyGroupRecord {
    const group = this.#deps.store.keyGroups.create({
      name: validateGroupName(input.name),
      limits: input.limits === undefined ? undefined : validateLimits(input.limits),
      allowedModels: validateAllowedModels(input.allowedModels ?? []),
    }, this.#deps.now());
    this.#deps.reload();
    return group;
  }

  /** Changes a group; 404 when it does not exist. */
  update(id: number, input: Partial<GroupInput>): KeyGroupRecord {
    const updated = this.#deps.store.keyGroups.update(id, {
      name: input.name === undefined ? undefined : validateGroupName(input.name),
      limits: input.limits === undefined ? undefined : validateLimits(input.limits),
      allowedModels: input.allowedModels === undefined
        ? undefined
        : validateAllowedModels(input.allowedModels),
    }, this.#deps.now());
    if (!updated) throw notFound(`Key group ${id} does not exist`);
    this.#deps.reload();
    return updated;
  }

  /** Deletes a group: its keys stay, ungrouped; its budgets go. 404 when none. */
  delete(id: number): KeyGroupRecord {
    const { store } = this.#deps;
    const group = store.keyGroups.get(id);
    if (!group) throw notFound(`Key group ${id} does not exist`);
    store.transaction(() => store.keyGroups.delete(id));
    this.#deps.reload();
    return group;
  }
}
