import type { Database } from "./database.ts";
import type { SecretBox } from "./secret_box.ts";

/** An upstream key as listed (never its value). */
export interface UpstreamKeyView {
  readonly id: string;
  readonly providerId: string;
  readonly label: string;
  readonly masked: string;
  readonly status: string;
  readonly priority: number;
  readonly createdAt: number;
  readonly lastCheckedAt: number | null;
  readonly lastError: string;
}

/** One inventory provider with its key count. */
export interface InventoryProviderView {
  readonly id: string;
  readonly name: string;
  readonly keyCount: number;
}

/** Counts across the inventory. */
export interface InventorySummary {
  readonly total: number;
  readonly active: number;
  readonly pending: number;
  readonly invalid: number;
  readonly providers: number;
}

interface KeyRow {
  id: string;
  provider_id: string;
  key_label: string;
  key_masked: string;
  status: string;
  priority: number;
  created_at: number;
  last_checked_at: number | null;
  last_error: string;
}

/**
 * The upstream key inventory (inventory_providers, upstream_keys). Key values are sealed by the
 * SecretBox; duplicates are found by the SHA-256 hash the caller supplies.
 */
export class InventoryRepo {
  readonly #db: Database;
  readonly #box: SecretBox;

  constructor(db: Database, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  /** Creates the provider row when missing. */
  ensureProvider(id: string, now: number): void {
    this.#db.prepare(
      `INSERT INTO inventory_providers (id, name, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    ).run(id, id, id, now, now);
  }

  /** Adds a key unless its hash is known; returns the stored row's id and whether it was new. */
  addKey(
    input: { id: string; providerId: string; label: string; value: string; hash: string; masked: string },
    now: number,
  ): { id: string; added: boolean; providerId: string; label: string; status: string } {
    const existing = this.#db.prepare(
      "SELECT id, provider_id, key_label, status FROM upstream_keys WHERE key_hash = ?",
    ).get(input.hash) as { id: string; provider_id: string; key_label: string; status: string } | undefined;
    if (existing) {
      return {
        id: existing.id,
        added: false,
        providerId: existing.provider_id,
        label: existing.key_label,
        status: existing.status,
      };
    }
    this.#db.prepare(
      `INSERT INTO upstream_keys (id, provider_id, key_label, key_value, key_hash, key_masked, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      input.id,
      input.providerId,
      input.label,
      this.#box.seal(input.value),
      input.hash,
      input.masked,
      now,
      now,
    );
    this.#db.prepare(
      "INSERT INTO upstream_key_history (upstream_key_id, new_status, notes, changed_at) VALUES (?, ?, ?, ?)",
    ).run(input.id, "pending_validation", "pushed", now);
    return {
      id: input.id,
      added: true,
      providerId: input.providerId,
      label: input.label,
      status: "pending_validation",
    };
  }

  /** Every stored key value, opened: only for the redactor, which must know them to hide them. */
  secretValues(): string[] {
    const rows = this.#db.prepare("SELECT key_value FROM upstream_keys").all() as unknown as {
      key_value: string;
    }[];
    return rows.map((r) => this.#box.open(r.key_value));
  }

  /** A page of keys, optionally of one provider, by priority then age. */
  keys(limit: number, offset: number, providerId?: string): { keys: UpstreamKeyView[]; total: number } {
    const where = providerId ? "WHERE provider_id = ?" : "";
    const args = providerId ? [providerId] : [];
    const rows = this.#db.prepare(
      `SELECT id, provider_id, key_label, key_masked, status, priority, created_at, last_checked_at, last_error
       FROM upstream_keys ${where} ORDER BY priority DESC, created_at DESC, id LIMIT ? OFFSET ?`,
    ).all(...args, limit, offset) as unknown as KeyRow[];
    const total = this.#db.prepare(`SELECT count(*) AS n FROM upstream_keys ${where}`).get(...args) as {
      n: number;
    };
    return {
      total: Number(total.n),
      keys: rows.map((r) => ({
        id: r.id,
        providerId: r.provider_id,
        label: r.key_label,
        masked: r.key_masked,
        status: r.status,
        priority: Number(r.priority),
        createdAt: Number(r.created_at),
        lastCheckedAt: r.last_checked_at === null ? null : Number(r.last_checked_at),
        lastError: r.last_error,
      })),
    };
  }

  /** Providers with their key counts. */
  providers(): InventoryProviderView[] {
    const rows = this.#db.prepare(
      `SELECT p.id, p.name, count(k.id) AS n FROM inventory_providers p
       LEFT JOIN upstream_keys k ON k.provider_id = p.id GROUP BY p.id ORDER BY p.id`,
    ).all() as unknown as { id: string; name: string; n: number }[];
    return rows.map((r) => ({ id: r.id, name: r.name, keyCount: Number(r.n) }));
  }

  /** Key counts by status family. */
  summary(): InventorySummary {
    const row = this.#db.prepare(
      `SELECT count(*) AS total, coalesce(sum(CASE WHEN status = 'active' THEN 1 ELSE 0 END), 0) AS active,
         coalesce(sum(CASE WHEN status LIKE 'pending%' THEN 1 ELSE 0 END), 0) AS pending,
         coalesce(sum(CASE WHEN status IN ('invalid', 'revoked', 'exhausted', 'critical') THEN 1 ELSE 0 END), 0)
           AS invalid,
         (SELECT count(*) FROM inventory_providers) AS providers
       FROM upstream_keys`,
    ).get() as Record<string, number>;
    return {
      total: Number(row.total),
      active: Number(row.active),
      pending: Number(row.pending),
      invalid: Number(row.invalid),
      providers: Number(row.providers),
    };
  }
}
