import { hashApiKey } from "../security/api_key.ts";
import type { CredentialSlot } from "./credentials_repo.ts";
import type { Database } from "./database.ts";
import {
  countKeys,
  exportRows,
  type InventoryCount,
  type KeyFilter,
  listKeys,
  num,
  oneKey,
  ROUTABLE,
  type UpstreamKeyView,
} from "./inventory_listing.ts";
import type { SecretBox } from "./secret_box.ts";

export type { InventoryCount, KeyFilter, UpstreamKeyView } from "./inventory_listing.ts";

/** A key to add, its value in plaintext (sealed here). Optional state is copied from an import. */
export interface NewUpstreamKey {
  readonly id: string;
  readonly providerId: string;
  readonly label: string;
  readonly value: string;
  readonly hash: string;
  readonly masked: string;
  readonly baseUrl: string;
  readonly sourceNode: string;
  readonly priority: number;
  readonly status: string;
  readonly lastError: string;
  readonly metadata: string;
  readonly note: string;
}

/** A routable key with its value opened: only the control plane's account expansion reads these. */
export interface RoutableKey {
  readonly id: string;
  readonly providerId: string;
  readonly value: string;
  readonly hash: string;
  readonly baseUrl: string;
  readonly priority: number;
  readonly creditsRemaining: number | null;
  readonly rateLimitRpm: number | null;
  readonly rateLimitRpd: number | null;
}

/**
 * The upstream key inventory (inventory_providers, upstream_keys): adding, listing, archiving and
 * deleting keys, and the routable keys the control plane expands into accounts. Key values are sealed by
 * the SecretBox; duplicates are found by the SHA-256 hash the caller supplies. Checks live in
 * inventory_checks_repo.ts.
 */
export class InventoryRepo {
  readonly #db: Database;
  readonly #box: SecretBox;
  /**
   * Opened values by sealed text: routing is rebuilt after every batch of checks, and opening a thousand
   * keys each time would hold the event loop for a noticeable while. Rebuilt from the routable keys.
   */
  #opened = new Map<string, string>();

  constructor(db: Database, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  #open(sealed: string): string {
    return this.#opened.get(sealed) ?? this.#box.open(sealed);
  }

  /** Creates the provider row when missing. */
  ensureProvider(id: string, now: number, name = id): void {
    this.#db.prepare(
      `INSERT INTO inventory_providers (id, name, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    ).run(id, name, name, now, now);
  }

  /** The stored key with this hash, if any. */
  byHash(hash: string): { id: string; providerId: string; label: string; status: string } | null {
    const row = this.#db.prepare(
      "SELECT id, provider_id, key_label, status FROM upstream_keys WHERE key_hash = ?",
    ).get(hash) as { id: string; provider_id: string; key_label: string; status: string } | undefined;
    return row ? { id: row.id, providerId: row.provider_id, label: row.key_label, status: row.status } : null;
  }

  /** Inserts a key (the caller checked its hash is new) and its first history row. */
  insert(key: NewUpstreamKey, now: number): void {
    this.#db.prepare(
      `INSERT INTO upstream_keys (id, provider_id, key_label, key_value, key_hash, key_masked, custom_base_url,
         source_node, priority, status, last_error, metadata, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      key.id,
      key.providerId,
      key.label,
      this.#box.seal(key.value),
      key.hash,
      key.masked,
      key.baseUrl,
      key.sourceNode,
      key.priority,
      key.status,
      key.lastError,
      key.metadata,
      now,
      now,
    );
    this.history(key.id, "", key.status, key.note, now);
  }

  /** Files an unidentified key under the provider now known, pending a check. */
  reassign(id: string, providerId: string, baseUrl: string, now: number): void {
    this.#db.prepare(
      `UPDATE upstream_keys SET provider_id = ?, custom_base_url = CASE WHEN ? = '' THEN custom_base_url ELSE ? END,
         status = 'pending_validation', last_error = '', updated_at = ? WHERE id = ?`,
    ).run(providerId, baseUrl, baseUrl, now, id);
    this.history(id, "unidentified", "pending_validation", `provider set to ${providerId}`, now);
  }

  /**
   * Copies the credit figures an import carried, for display until the first check. The file's status,
   * validity and usability are not copied: they describe another gateway's view at export time, and a
   * stale "active" for a dead key would carry traffic. The key stays pending until checked here.
   */
  copyCredits(id: string, s: { creditsRemaining?: number; creditsTotal?: number }): void {
    this.#db.prepare(
      `UPDATE upstream_keys SET credits_remaining = coalesce(?, credits_remaining),
         credits_total = coalesce(?, credits_total) WHERE id = ?`,
    ).run(s.creditsRemaining ?? null, s.creditsTotal ?? null, id);
  }

  /** Brings a revoked key back for a check (a provider's key that came back). */
  reactivate(id: string, now: number, notes: string): void {
    this.#db.prepare("UPDATE upstream_keys SET status = 'pending_validation', updated_at = ? WHERE id = ?")
      .run(now, id);
    this.history(id, "revoked", "pending_validation", notes, now);
  }

  /** Appends a history row. */
  history(
    id: string,
    previous: string,
    next: string,
    notes: string,
    now: number,
    credits?: number | null,
  ): void {
    this.#db.prepare(
      `INSERT INTO upstream_key_history (upstream_key_id, previous_status, new_status, notes, changed_at,
         credits_remaining) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(id, previous, next, notes, now, credits ?? null);
  }

  /** Archives or restores a key; false when it does not exist. */
  setArchived(id: string, archived: boolean, now: number): boolean {
    const done = this.#db.prepare("UPDATE upstream_keys SET is_archived = ?, updated_at = ? WHERE id = ?")
      .run(archived ? 1 : 0, now, id).changes > 0;
    if (done) this.history(id, "", archived ? "archived" : "restored", "", now);
    return done;
  }

  /** Marks a key revoked (a provider's key that changed or went away). */
  revoke(id: string, now: number, notes: string): void {
    const row = this.#db.prepare("SELECT status FROM upstream_keys WHERE id = ?").get(id) as
      | { status: string }
      | undefined;
    if (!row || row.status === "revoked") return;
    this.#db.prepare(
      "UPDATE upstream_keys SET status = 'revoked', is_usable = 0, updated_at = ? WHERE id = ?",
    )
      .run(now, id);
    this.history(id, row.status, "revoked", notes, now);
  }

  /** Deletes a key with its models and history; false when it does not exist. */
  delete(id: string): boolean {
    this.#db.prepare("DELETE FROM upstream_key_history WHERE upstream_key_id = ?").run(id);
    return this.#db.prepare("DELETE FROM upstream_keys WHERE id = ?").run(id).changes > 0;
  }

  /** Keys mirrored from gateway providers: source node → id, hash and status. */
  mirrors(): { id: string; sourceNode: string; hash: string; status: string }[] {
    const rows = this.#db.prepare(
      "SELECT id, source_node, key_hash, status FROM upstream_keys WHERE source_node LIKE 'gateway:%'",
    ).all() as { id: string; source_node: string; key_hash: string; status: string }[];
    return rows.map((r) => ({ id: r.id, sourceNode: r.source_node, hash: r.key_hash, status: r.status }));
  }

  /** Routable keys, opened, best first: priority, then known credit, then most credit, then oldest. */
  routable(): RoutableKey[] {
    const rows = this.#db.prepare(
      `SELECT id, provider_id, key_value, key_hash, custom_base_url, priority, credits_remaining, rate_limit_rpm,
         rate_limit_rpd FROM upstream_keys WHERE ${ROUTABLE}
       ORDER BY priority DESC, credits_remaining IS NULL, credits_remaining DESC, created_at, id`,
    ).all() as Record<string, unknown>[];
    const opened = new Map<string, string>();
    const keys = rows.map((r) => ({
      id: String(r.id),
      providerId: String(r.provider_id),
      value: this.#open(String(r.key_value)),
      hash: String(r.key_hash),
      baseUrl: String(r.custom_base_url),
      priority: Number(r.priority),
      creditsRemaining: num(r.credits_remaining),
      rateLimitRpm: num(r.rate_limit_rpm),
      rateLimitRpd: num(r.rate_limit_rpd),
    }));
    rows.forEach((r, i) => opened.set(String(r.key_value), keys[i].value));
    this.#opened = opened;
    return keys;
  }

  /** Hashes of keys that must not route, even as a provider's own key (invalid, archived, revoked…). */
  blockedHashes(): Set<string> {
    const rows = this.#db.prepare(
      `SELECT key_hash FROM upstream_keys WHERE is_archived = 1 OR status IN ('invalid', 'daily_exhausted')`,
    ).all() as { key_hash: string }[];
    return new Set(rows.map((r) => r.key_hash));
  }

  /** Every stored key value, opened: only for the redactor, which must know them to hide them. */
  secretValues(): string[] {
    const rows = this.#db.prepare("SELECT key_value FROM upstream_keys").all() as unknown as {
      key_value: string;
    }[];
    return rows.map((r) => this.#open(r.key_value));
  }

  /**
   * The credential core's slot for an OAuth key ("inventory:<id>"): a refresh that rotates the blob writes
   * it back here, with its new hash and mask, in the credential core's transaction.
   */
  credentialSlot(id: string, mask: (value: string) => string): CredentialSlot {
    const db = this.#db, box = this.#box;
    return {
      id: `inventory:${id}`,
      read: () => this.value(id) ?? undefined,
      write(plain) {
        db.prepare("UPDATE upstream_keys SET key_value = ?, key_hash = ?, key_masked = ? WHERE id = ?")
          .run(box.seal(plain), hashApiKey(plain), mask(plain), id);
      },
    };
  }

  /** One key's value, opened (export after confirmation, checks). */
  value(id: string): string | null {
    const row = this.#db.prepare("SELECT key_value FROM upstream_keys WHERE id = ?").get(id) as
      | { key_value: string }
      | undefined;
    return row ? this.#box.open(row.key_value) : null;
  }

  /** A page of keys matching a filter, by priority then age. */
  keys(limit: number, offset: number, filter: KeyFilter = {}): { keys: UpstreamKeyView[]; total: number } {
    return listKeys(this.#db, limit, offset, filter);
  }

  /** One key (masked), or null. */
  key(id: string): UpstreamKeyView | null {
    return oneKey(this.#db, id);
  }

  /** Every key with its opened value (the confirmed JSON export), optionally of one provider. */
  exportRows(providerId?: string): (UpstreamKeyView & { value: string; metadata: string })[] {
    return exportRows(this.#db, providerId).map(({ sealed, ...r }) => ({
      ...r,
      value: this.#box.open(sealed),
    }));
  }

  /** Key counts per provider, status, health and routability. */
  counts(): InventoryCount[] {
    return countKeys(this.#db);
  }
}
