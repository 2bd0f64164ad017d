import type { Database } from "./database.ts";
import type { SecretBox } from "./secret_box.ts";

/** A key due for a check, its value opened. */
export interface KeyToCheck {
  readonly id: string;
  readonly providerId: string;
  readonly value: string;
  readonly baseUrl: string;
  readonly status: string;
}

/** What one check found, as stored. `status: null` keeps the previous status (an inconclusive check). */
export interface CheckRecord {
  readonly status: string | null;
  readonly valid: boolean;
  readonly usable: boolean;
  readonly usability: string;
  readonly note: string;
  readonly error: string;
  readonly health: string;
  readonly models: readonly string[] | null;
  readonly rpm: number | null;
  readonly tpm: number | null;
  readonly rpd: number | null;
  readonly credits: { remaining: number | null; total: number | null; used: number | null } | null;
  /** A refreshed credential to store in place of the old one, with its hash and mask. */
  readonly rotated?: { readonly value: string; readonly hash: string; readonly masked: string };
}

/** One history row. */
export interface KeyHistoryRow {
  readonly previousStatus: string;
  readonly newStatus: string;
  readonly notes: string;
  readonly creditsRemaining: number | null;
  readonly changedAt: number;
}

/** Key checks: which keys are due, their results, the models each key reaches and its history. */
export class InventoryChecksRepo {
  readonly #db: Database;
  readonly #box: SecretBox;

  constructor(db: Database, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  /** Keys a check may run on (not revoked, archived or unidentified); all of them when `ids` is absent. */
  due(ids?: readonly string[]): KeyToCheck[] {
    const base = `SELECT id, provider_id, key_value, custom_base_url, status FROM upstream_keys
      WHERE is_archived = 0 AND status NOT IN ('revoked', 'unidentified')`;
    const rows =
      (ids === undefined
        ? this.#db.prepare(`${base} ORDER BY last_checked_at IS NOT NULL, last_checked_at, id`).all()
        : ids.flatMap((id) => this.#db.prepare(`${base} AND id = ?`).all(id))) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: String(r.id),
      providerId: String(r.provider_id),
      value: this.#box.open(String(r.key_value)),
      baseUrl: String(r.custom_base_url),
      status: String(r.status),
    }));
  }

  /** Stores a check's result, its history row and (when the check listed them) the key's models. */
  record(id: string, result: CheckRecord, now: number): void {
    const row = this.#db.prepare("SELECT status, credits_remaining FROM upstream_keys WHERE id = ?").get(
      id,
    ) as
      | { status: string; credits_remaining: number | null }
      | undefined;
    if (!row) return;
    const status = result.status ?? row.status;
    const credits = result.credits;
    this.#db.prepare(
      `UPDATE upstream_keys SET status = ?, is_valid = ?, is_usable = ?, usability_status = ?, usability_note = ?,
         health_status = ?, rate_limit_rpm = coalesce(?, rate_limit_rpm), rate_limit_tpm = coalesce(?, rate_limit_tpm),
         rate_limit_rpd = coalesce(?, rate_limit_rpd), credits_remaining = ?, credits_total = ?, credits_used = ?,
         last_checked_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
    ).run(
      status,
      result.valid ? 1 : 0,
      result.usable ? 1 : 0,
      result.usability,
      result.note,
      result.health,
      result.rpm,
      result.tpm,
      result.rpd,
      credits ? credits.remaining : row.credits_remaining,
      credits?.total ?? null,
      credits?.used ?? null,
      now,
      result.error,
      now,
      id,
    );
    if (result.rotated) {
      this.#db.prepare("UPDATE upstream_keys SET key_value = ?, key_hash = ?, key_masked = ? WHERE id = ?")
        .run(this.#box.seal(result.rotated.value), result.rotated.hash, result.rotated.masked, id);
    }
    const notes = [result.error, result.note, result.rotated ? "credential rotated" : ""].filter((s) =>
      s !== ""
    )
      .join("; ");
    this.#db.prepare(
      `INSERT INTO upstream_key_history (upstream_key_id, previous_status, new_status, notes, changed_at,
         credits_remaining) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(id, row.status, status, notes.slice(0, 1000), now, credits?.remaining ?? null);
    if (result.models !== null) {
      this.#db.prepare("DELETE FROM upstream_models WHERE upstream_key_id = ?").run(id);
      const insert = this.#db.prepare(
        "INSERT INTO upstream_models (id, upstream_key_id, model_id, created_at) VALUES (?, ?, ?, ?)",
      );
      result.models.forEach((model, i) => insert.run(`${id}:${i}`, id, model, now));
    }
  }

  /** Model ids the key reached at its last check that listed models. */
  models(id: string): string[] {
    const rows = this.#db.prepare(
      "SELECT model_id FROM upstream_models WHERE upstream_key_id = ? ORDER BY model_id",
    )
      .all(id) as { model_id: string }[];
    return rows.map((r) => r.model_id);
  }

  /** The newest history rows of a key. */
  history(id: string, limit = 20): KeyHistoryRow[] {
    const rows = this.#db.prepare(
      `SELECT previous_status, new_status, notes, credits_remaining, changed_at FROM upstream_key_history
       WHERE upstream_key_id = ? ORDER BY id DESC LIMIT ?`,
    ).all(id, limit) as Record<string, unknown>[];
    return rows.map((r) => ({
      previousStatus: String(r.previous_status),
      newStatus: String(r.new_status),
      notes: String(r.notes),
      creditsRemaining: r.credits_remaining === null ? null : Number(r.credits_remaining),
      changedAt: Number(r.changed_at),
    }));
  }
}
