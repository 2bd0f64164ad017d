import type { KeyLimits } from "./api_keys_repo.ts";
import type { Database } from "./database.ts";
import { DuplicateNameError } from "./duplicate_name.ts";
import { stringList } from "./json_column.ts";

/** A team or project: its keys inherit its limits and allowlist and may only narrow them. */
export interface KeyGroupRecord {
  readonly id: number;
  readonly name: string;
  readonly limits: KeyLimits;
  /** Empty means every model. */
  readonly allowedModels: readonly string[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What defines a group (every field of an update is optional; null clears a limit). */
export interface KeyGroupInput {
  readonly name: string;
  readonly limits?: Partial<KeyLimits>;
  readonly allowedModels?: readonly string[];
}

interface Row {
  id: number;
  name: string;
  rpm: number | null;
  tpm: number | null;
  max_parallel: number | null;
  allowed_models: string | null;
  created_at: number;
  updated_at: number;
}

/** The key_groups table (names unique: DuplicateNameError). Deleting a group leaves its keys ungrouped. */
export class KeyGroupsRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Every group by name. */
  list(): KeyGroupRecord[] {
    return (this.#db.prepare("SELECT * FROM key_groups ORDER BY name").all() as unknown as Row[]).map(
      toRecord,
    );
  }

  /** One group by id. */
  get(id: number): KeyGroupRecord | undefined {
    const row = this.#db.prepare("SELECT * FROM key_groups WHERE id = ?").get(id) as unknown as
      | Row
      | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** One group by name. */
  findByName(name: string): KeyGroupRecord | undefined {
    const row = this.#db.prepare("SELECT * FROM key_groups WHERE name = ?").get(name) as unknown as
      | Row
      | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Creates a group. */
  create(input: KeyGroupInput, now: number): KeyGroupRecord {
    this.#assertNameFree(input.name, 0);
    const row = this.#db.prepare(
      `INSERT INTO key_groups (name, rpm, tpm, max_parallel, allowed_models, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      input.name,
      input.limits?.rpm ?? null,
      input.limits?.tpm ?? null,
      input.limits?.maxParallel ?? null,
      modelsColumn(input.allowedModels ?? []),
      now,
      now,
    ) as unknown as Row;
    return toRecord(row);
  }

  /** Applies changes; undefined when the group does not exist. */
  update(id: number, changes: Partial<KeyGroupInput>, now: number): KeyGroupRecord | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    if (changes.name !== undefined && changes.name !== current.name) this.#assertNameFree(changes.name, id);
    const limits = { ...current.limits, ...changes.limits };
    this.#db.prepare(
      `UPDATE key_groups SET name = ?, rpm = ?, tpm = ?, max_parallel = ?, allowed_models = ?, updated_at = ?
       WHERE id = ?`,
    ).run(
      changes.name ?? current.name,
      limits.rpm,
      limits.tpm,
      limits.maxParallel,
      modelsColumn(changes.allowedModels ?? current.allowedModels),
      now,
      id,
    );
    return this.get(id);
  }

  /** Deletes a group (its keys stay, ungrouped; its budgets go); false when it did not exist. */
  delete(id: number): boolean {
    // The foreign keys say the same; said here too because SQLite enforces them only with the pragma on.
    this.#db.prepare("UPDATE api_keys SET group_id = NULL WHERE group_id = ?").run(id);
    this.#db.prepare("DELETE FROM budgets WHERE group_id = ?").run(id);
    return Number(this.#db.prepare("DELETE FROM key_groups WHERE id = ?").run(id).changes) > 0;
  }

  #assertNameFree(name: string, exceptId: number): void {
    const row = this.#db.prepare("SELECT id FROM key_groups WHERE name = ? AND id <> ?").get(name, exceptId);
    if (row !== undefined) throw new DuplicateNameError("a key group", name);
  }
}

function modelsColumn(models: readonly string[]): string | null {
  return models.length > 0 ? JSON.stringify(models) : null;
}

function toRecord(row: Row): KeyGroupRecord {
  const optional = (v: number | null) => v === null ? null : Number(v);
  return {
    id: Number(row.id),
    name: row.name,
    limits: { rpm: optional(row.rpm), tpm: optional(row.tpm), maxParallel: optional(row.max_parallel) },
    allowedModels: stringList(row.allowed_models),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
