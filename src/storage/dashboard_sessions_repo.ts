import type { Database } from "./database.ts";

/** A dashboard sign-in: whose key opened it (DB key id or a static key's hash) and when it ends. */
export interface DashboardSession {
  readonly tokenHash: string;
  readonly keyId: number | null;
  readonly staticKeyHash: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

interface Row {
  token_hash: string;
  key_id: number | null;
  static_key_hash: string | null;
  created_at: number;
  expires_at: number;
}

/** The dashboard_sessions table. Only SHA-256 hashes of session tokens are stored. */
export class DashboardSessionsRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Stores a new session (and drops expired ones). */
  create(session: DashboardSession): void {
    this.#db.prepare("DELETE FROM dashboard_sessions WHERE expires_at <= ?").run(session.createdAt);
    this.#db.prepare(
      "INSERT INTO dashboard_sessions (token_hash, key_id, static_key_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    ).run(session.tokenHash, session.keyId, session.staticKeyHash, session.createdAt, session.expiresAt);
  }

  /** One session by token hash. */
  get(tokenHash: string): DashboardSession | undefined {
    const row = this.#db.prepare("SELECT * FROM dashboard_sessions WHERE token_hash = ?").get(tokenHash) as
      | Row
      | undefined;
    if (!row) return undefined;
    return {
      tokenHash: row.token_hash,
      keyId: row.key_id === null ? null : Number(row.key_id),
      staticKeyHash: row.static_key_hash,
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
    };
  }

  /** Ends one session. */
  delete(tokenHash: string): void {
    this.#db.prepare("DELETE FROM dashboard_sessions WHERE token_hash = ?").run(tokenHash);
  }

  /** Ends every session opened with a DB key (revocation, can_login off). */
  deleteForKey(keyId: number): number {
    return Number(this.#db.prepare("DELETE FROM dashboard_sessions WHERE key_id = ?").run(keyId).changes);
  }
}
