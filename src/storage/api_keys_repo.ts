import type { Database } from "./database.ts";
import { stringList } from "./json_column.ts";

/** A database API key as stored (never the plaintext). */
export interface ApiKeyRecord {
  readonly id: number;
  readonly name: string;
  readonly keyHash: string;
  readonly prefix: string;
  readonly status: "active" | "revoked";
  readonly canLogin: boolean;
  /** Empty means every model. */
  readonly allowedModels: readonly string[];
  /** The dashboard role set explicitly; null takes the default (see keyRole). */
  readonly role: KeyRole | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What a signed-in key may do in the dashboard: change everything, or look. */
export type KeyRole = "admin" | "viewer";

/** Fields that can change on an existing key (`role: null` returns it to the default). */
export interface ApiKeyChanges {
  readonly name?: string;
  readonly canLogin?: boolean;
  readonly allowedModels?: readonly string[];
  readonly role?: KeyRole | null;
}

interface Row {
  id: number;
  name: string;
  key_hash: string;
  prefix: string;
  status: string;
  can_login: number;
  allowed_models: string | null;
  role: string | null;
  created_at: number;
  updated_at: number;
}

/** The api_keys table. */
export class ApiKeysRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Inserts a key by its hash and display prefix. */
  create(
    input: {
      name: string;
      keyHash: string;
      prefix: string;
      canLogin: boolean;
      allowedModels: readonly string[];
      role?: KeyRole | null;
    },
    now: number,
  ): ApiKeyRecord {
    const row = this.#db.prepare(
      `INSERT INTO api_keys (name, key_hash, prefix, can_login, allowed_models, role, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      input.name,
      input.keyHash,
      input.prefix,
      input.canLogin ? 1 : 0,
      input.allowedModels.length > 0 ? JSON.stringify(input.allowedModels) : null,
      input.role ?? null,
      now,
      now,
    ) as unknown as Row;
    return toRecord(row);
  }

  /** Every key, newest last. */
  list(): ApiKeyRecord[] {
    return (this.#db.prepare("SELECT * FROM api_keys ORDER BY id").all() as unknown as Row[]).map(toRecord);
  }

  /** One key by id. */
  get(id: number): ApiKeyRecord | undefined {
    const row = this.#db.prepare("SELECT * FROM api_keys WHERE id = ?").get(id) as unknown as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** One key by name (first match). */
  findByName(name: string): ApiKeyRecord | undefined {
    const row = this.#db.prepare("SELECT * FROM api_keys WHERE name = ? ORDER BY id LIMIT 1").get(name) as
      | unknown
      | undefined;
    return row ? toRecord(row as Row) : undefined;
  }

  /** Applies changes; returns the updated key, or undefined when it does not exist. */
  update(id: number, changes: ApiKeyChanges, now: number): ApiKeyRecord | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const allowed = changes.allowedModels ?? current.allowedModels;
    this.#db.prepare(
      "UPDATE api_keys SET name = ?, can_login = ?, allowed_models = ?, role = ?, updated_at = ? WHERE id = ?",
    ).run(
      changes.name ?? current.name,
      (changes.canLogin ?? current.canLogin) ? 1 : 0,
      allowed.length > 0 ? JSON.stringify(allowed) : null,
      changes.role === undefined ? current.role : changes.role,
      now,
      id,
    );
    return this.get(id);
  }

  /** Marks a key revoked; returns false when it does not exist. */
  revoke(id: number, now: number): boolean {
    const result = this.#db.prepare("UPDATE api_keys SET status = 'revoked', updated_at = ? WHERE id = ?")
      .run(now, id);
    return Number(result.changes) > 0;
  }
}

function toRecord(row: Row): ApiKeyRecord {
  return {
    id: Number(row.id),
    name: row.name,
    keyHash: row.key_hash,
    prefix: row.prefix,
    status: row.status === "revoked" ? "revoked" : "active",
    canLogin: row.can_login === 1,
    allowedModels: stringList(row.allowed_models),
    role: row.role === "admin" || row.role === "viewer" ? row.role : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
