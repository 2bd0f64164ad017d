import type { Database } from "./database.ts";

/** Who a single sign-on session belongs to, as the provider said at sign-in, and the role it mapped to. */
export interface SsoSessionIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string;
  readonly name: string;
  readonly role: "admin" | "viewer";
}

/**
 * A dashboard sign-in: whose key opened it (DB key id or a static key's hash), or for a single sign-on the
 * provider's account (`sso`, both key fields null), and when it ends.
 */
export interface DashboardSession {
  readonly tokenHash: string;
  readonly keyId: number | null;
  readonly staticKeyHash: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly sso?: SsoSessionIdentity;
}

interface Row {
  token_hash: string;
  key_id: number | null;
  static_key_hash: string | null;
  created_at: number;
  expires_at: number;
  sso_issuer: string | null;
  sso_subject: string | null;
  sso_email: string | null;
  sso_name: string | null;
  sso_role: string | null;
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
    const sso = session.sso;
    this.#db.prepare(
      `INSERT INTO dashboard_sessions (token_hash, key_id, static_key_hash, created_at, expires_at, sso_issuer,
         sso_subject, sso_email, sso_name, sso_role)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      session.tokenHash,
      session.keyId,
      session.staticKeyHash,
      session.createdAt,
      session.expiresAt,
      sso?.issuer ?? null,
      sso?.subject ?? null,
      sso?.email ?? null,
      sso?.name ?? null,
      sso?.role ?? null,
    );
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
      ...(row.sso_issuer !== null && row.sso_subject !== null
        ? {
          sso: {
            issuer: row.sso_issuer,
            subject: row.sso_subject,
            email: row.sso_email ?? "",
            name: row.sso_name ?? "",
            // Anything but an explicit administrator reads as a viewer: least privilege on a damaged row.
            role: row.sso_role === "admin" ? "admin" as const : "viewer" as const,
          },
        }
        : {}),
    };
  }

  /** Ends one session. */
  delete(tokenHash: string): void {
    this.#db.prepare("DELETE FROM dashboard_sessions WHERE token_hash = ?").run(tokenHash);
  }

  /** Ends every single sign-on session (SSO turned off or its provider changed); how many ended. */
  deleteSso(): number {
    return Number(
      this.#db.prepare("DELETE FROM dashboard_sessions WHERE sso_subject IS NOT NULL").run().changes,
    );
  }

  /** Ends every session opened with a DB key (revocation, can_login off). */
  deleteForKey(keyId: number): number {
    return Number(this.#db.prepare("DELETE FROM dashboard_sessions WHERE key_id = ?").run(keyId).changes);
  }
}
