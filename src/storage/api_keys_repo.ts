import type { Database } from "./database.ts";
import { DuplicateNameError } from "./duplicate_name.ts";
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
  /** The key group it belongs to, if any (its limits, budgets and allowlist bound the key). */
  readonly groupId: number | null;
  /** Own limits; null inherits the group's, else the global default (src/accounting/rate_limits.ts). */
  readonly limits: KeyLimits;
  /** When the key stops authenticating (epoch ms); null never. */
  readonly expiresAt: number | null;
  /** The last time it authenticated, as last flushed (epoch ms; table api_key_last_used). */
  readonly lastUsedAt: number | null;
  /** After a rotation: the old secret's hash, accepted until previousValidUntil. */
  readonly previousKeyHash: string | null;
  readonly previousValidUntil: number | null;
}

/** Requests per minute, tokens per minute, requests at once; null means "not set here". */
export interface KeyLimits {
  readonly rpm: number | null;
  readonly tpm: number | null;
  readonly maxParallel: number | null;
}

/** No limits set. */
export const NO_LIMITS: KeyLimits = { rpm: null, tpm: null, maxParallel: null };

/** What a signed-in key may do in the dashboard: change everything, or look. */
export type KeyRole = "admin" | "viewer";

/** Fields that can change on an existing key (`role: null` returns it to the default). */
export interface ApiKeyChanges {
  readonly name?: string;
  readonly canLogin?: boolean;
  readonly allowedModels?: readonly string[];
  readonly role?: KeyRole | null;
  /** null takes the key out of its group. */
  readonly groupId?: number | null;
  /** Each field given replaces that limit (null clears it). */
  readonly limits?: Partial<KeyLimits>;
  /** null: never expires. */
  readonly expiresAt?: number | null;
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
  group_id: number | null;
  rpm: number | null;
  tpm: number | null;
  max_parallel: number | null;
  expires_at: number | null;
  last_used_at: number | null;
  previous_key_hash: string | null;
  previous_valid_until: number | null;
}

const SELECT = "SELECT k.*, u.last_used_at FROM api_keys k LEFT JOIN api_key_last_used u ON u.key_id = k.id";

/** The api_keys table. Names are unique among active keys (DuplicateNameError). */
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
      groupId?: number | null;
      limits?: Partial<KeyLimits>;
      expiresAt?: number | null;
    },
    now: number,
  ): ApiKeyRecord {
    this.#assertNameFree(input.name, null);
    const limits = { ...NO_LIMITS, ...input.limits };
    const row = this.#db.prepare(
      `INSERT INTO api_keys (name, key_hash, prefix, can_login, allowed_models, role, created_at, updated_at,
         group_id, rpm, tpm, max_parallel, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      input.name,
      input.keyHash,
      input.prefix,
      input.canLogin ? 1 : 0,
      input.allowedModels.length > 0 ? JSON.stringify(input.allowedModels) : null,
      input.role ?? null,
      now,
      now,
      input.groupId ?? null,
      limits.rpm,
      limits.tpm,
      limits.maxParallel,
      input.expiresAt ?? null,
    ) as unknown as Row;
    return toRecord(row);
  }

  /** Every key, newest last. */
  list(): ApiKeyRecord[] {
    return (this.#db.prepare(`${SELECT} ORDER BY k.id`).all() as unknown as Row[]).map(toRecord);
  }

  /** One key by id. */
  get(id: number): ApiKeyRecord | undefined {
    const row = this.#db.prepare(`${SELECT} WHERE k.id = ?`).get(id) as unknown as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** One key by name: the active one when there is one, else the oldest. */
  findByName(name: string): ApiKeyRecord | undefined {
    const row = this.#db.prepare(
      `${SELECT} WHERE k.name = ? ORDER BY k.status = 'active' DESC, k.id LIMIT 1`,
    ).get(name) as
      | unknown
      | undefined;
    return row ? toRecord(row as Row) : undefined;
  }

  /** Applies changes; returns the updated key, or undefined when it does not exist. */
  update(id: number, changes: ApiKeyChanges, now: number): ApiKeyRecord | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const allowed = changes.allowedModels ?? current.allowedModels;
    if (changes.name !== undefined && changes.name !== current.name && current.status === "active") {
      this.#assertNameFree(changes.name, id);
    }
    const limits = { ...current.limits, ...changes.limits };
    this.#db.prepare(
      `UPDATE api_keys SET name = ?, can_login = ?, allowed_models = ?, role = ?, updated_at = ?, group_id = ?,
         rpm = ?, tpm = ?, max_parallel = ?, expires_at = ? WHERE id = ?`,
    ).run(
      changes.name ?? current.name,
      (changes.canLogin ?? current.canLogin) ? 1 : 0,
      allowed.length > 0 ? JSON.stringify(allowed) : null,
      changes.role === undefined ? current.role : changes.role,
      now,
      changes.groupId === undefined ? current.groupId : changes.groupId,
      limits.rpm,
      limits.tpm,
      limits.maxParallel,
      changes.expiresAt === undefined ? current.expiresAt : changes.expiresAt,
      id,
    );
    return this.get(id);
  }

  /**
   * Gives a key a new secret, keeping its id and settings: the old hash is kept and accepted until
   * `graceUntil` (epoch ms; `now` or earlier ends it at once). Returns the updated key, or undefined when it
   * does not exist or is revoked.
   */
  rotate(id: number, input: { keyHash: string; prefix: string; graceUntil: number }, now: number):
    | ApiKeyRecord
    | undefined {
    const result = this.#db.prepare(
      `UPDATE api_keys SET previous_key_hash = key_hash, previous_valid_until = ?, key_hash = ?, prefix = ?,
         updated_at = ? WHERE id = ? AND status = 'active'`,
    ).run(input.graceUntil, input.keyHash, input.prefix, now, id);
    return Number(result.changes) > 0 ? this.get(id) : undefined;
  }

  /**
   * Records when keys were last used, one batch per flush (the request path only remembers the time in
   * memory). A time never moves backwards; a key that no longer exists is skipped.
   */
  touchLastUsed(uses: readonly { readonly id: number; readonly at: number }[]): void {
    const statement = this.#db.prepare(
      `INSERT INTO api_key_last_used (key_id, last_used_at) SELECT id, ? FROM api_keys WHERE id = ?
       ON CONFLICT (key_id) DO UPDATE SET last_used_at = excluded.last_used_at
       WHERE excluded.last_used_at > api_key_last_used.last_used_at`,
    );
    for (const use of uses) statement.run(use.at, use.id);
  }

  /** The active key with this name, other than `exceptId`, makes the name taken. */
  #assertNameFree(name: string, exceptId: number | null): void {
    const row = this.#db.prepare(
      "SELECT id FROM api_keys WHERE name = ? AND status = 'active' AND id <> ? LIMIT 1",
    ).get(name, exceptId ?? 0);
    if (row !== undefined) throw new DuplicateNameError("an active API key", name);
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
    groupId: nullableNumber(row.group_id),
    limits: {
      rpm: nullableNumber(row.rpm),
      tpm: nullableNumber(row.tpm),
      maxParallel: nullableNumber(row.max_parallel),
    },
    expiresAt: nullableNumber(row.expires_at),
    lastUsedAt: nullableNumber(row.last_used_at),
    previousKeyHash: row.previous_key_hash ?? null,
    previousValidUntil: nullableNumber(row.previous_valid_until),
  };
}

function nullableNumber(value: number | bigint | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}
