import type { Database } from "./database.ts";
import { transaction } from "./database.ts";
import type { SecretBox } from "./secret_box.ts";

/** How many spent refresh-token fingerprints are remembered per credential. */
const SPENT_KEPT = 32;

/** Where one stored credential lives (a provider's api_key, an inventory key): read and written in plaintext. */
export interface CredentialSlot {
  /** "provider:<id>" or "inventory:<key id>". */
  readonly id: string;
  /** The stored value, or undefined when the owner is gone. */
  read(): string | undefined;
  /** Replaces the stored value (called inside the repository's transaction). */
  write(plain: string): void;
}

/** Non-secret facts about one credential. */
export interface CredentialStateRecord {
  readonly lastRefreshAt: number | null;
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
}

/**
 * Credential state, refresh leases and rotation write-back. A rotation is one transaction: the new value
 * is written, the spent refresh token is remembered (as a keyed fingerprint), and the lease is released.
 */
export class CredentialsRepo {
  readonly #db: Database;
  readonly #box: SecretBox;

  constructor(db: Database, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  /** The slot of a provider's api_key. */
  providerSlot(providerId: string): CredentialSlot {
    const db = this.#db, box = this.#box;
    return {
      id: `provider:${providerId}`,
      read() {
        const row = db.prepare("SELECT api_key FROM providers WHERE id = ?").get(providerId) as
          | { api_key: string }
          | undefined;
        return row === undefined ? undefined : box.open(row.api_key);
      },
      write(plain) {
        db.prepare("UPDATE providers SET api_key = ? WHERE id = ?").run(box.seal(plain), providerId);
      },
    };
  }

  /**
   * Takes (or renews) the named lease for `holder` until `nowMs + ttlMs`; false while another holder's
   * lease runs. One statement, so SQLite's write lock makes it atomic across processes.
   */
  tryLease(name: string, holder: string, nowMs: number, ttlMs: number): boolean {
    const result = this.#db.prepare(
      `INSERT INTO oauth_leases (name, holder, until_ms) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
       WHERE oauth_leases.holder = excluded.holder OR oauth_leases.until_ms < ?`,
    ).run(name, holder, nowMs + ttlMs, nowMs);
    return Number(result.changes) > 0;
  }

  /** Gives a lease back (only the holder's). */
  releaseLease(name: string, holder: string): void {
    this.#db.prepare("DELETE FROM oauth_leases WHERE name = ? AND holder = ?").run(name, holder);
  }

  /**
   * Writes a rotated credential and, in the same transaction, remembers the refresh token it spent,
   * records the refresh time, clears the last error and releases the lease.
   */
  saveRotated(
    slot: CredentialSlot,
    plain: string,
    spentRefreshToken: string | undefined,
    nowMs: number,
    lease?: { name: string; holder: string },
  ): void {
    transaction(this.#db, () => {
      slot.write(plain);
      const spent = this.#spent(slot.id);
      if (spentRefreshToken) {
        const fp = this.#box.fingerprint(spentRefreshToken);
        if (!spent.includes(fp)) spent.push(fp);
      }
      this.#db.prepare(
        `INSERT INTO credential_state (credential_id, spent, last_refresh_at, last_error, last_error_at)
         VALUES (?, ?, ?, NULL, NULL)
         ON CONFLICT (credential_id) DO UPDATE SET spent = excluded.spent,
           last_refresh_at = excluded.last_refresh_at, last_error = NULL, last_error_at = NULL`,
      ).run(slot.id, JSON.stringify(spent.slice(-SPENT_KEPT)), nowMs);
      if (lease) this.releaseLease(lease.name, lease.holder);
    });
  }

  /** Records a failed refresh (the message must already be free of secrets). */
  recordError(credentialId: string, message: string, nowMs: number): void {
    this.#db.prepare(
      `INSERT INTO credential_state (credential_id, last_error, last_error_at) VALUES (?, ?, ?)
       ON CONFLICT (credential_id) DO UPDATE SET last_error = excluded.last_error,
         last_error_at = excluded.last_error_at`,
    ).run(credentialId, message, nowMs);
  }

  /** Whether this refresh token was already exchanged for the credential (so a blob carrying it is stale). */
  isSpent(credentialId: string, refreshToken: string): boolean {
    return this.#spent(credentialId).includes(this.#box.fingerprint(refreshToken));
  }

  /** The keyed fingerprint the spent list stores for a refresh token. */
  fingerprint(refreshToken: string): string {
    return this.#box.fingerprint(refreshToken);
  }

  /** Every credential's state by credential id. */
  states(): Map<string, CredentialStateRecord> {
    const rows = this.#db.prepare(
      "SELECT credential_id, last_refresh_at, last_error, last_error_at FROM credential_state",
    ).all() as unknown as {
      credential_id: string;
      last_refresh_at: number | null;
      last_error: string | null;
      last_error_at: number | null;
    }[];
    return new Map(rows.map((r) => [r.credential_id, {
      lastRefreshAt: r.last_refresh_at,
      lastError: r.last_error,
      lastErrorAt: r.last_error_at,
    }]));
  }

  #spent(credentialId: string): string[] {
    const row = this.#db.prepare("SELECT spent FROM credential_state WHERE credential_id = ?").get(
      credentialId,
    ) as { spent: string } | undefined;
    try {
      const list = JSON.parse(row?.spent ?? "[]");
      return Array.isArray(list) ? list.filter((v): v is string => typeof v === "string") : [];
    } catch {
      return [];
    }
  }
}
