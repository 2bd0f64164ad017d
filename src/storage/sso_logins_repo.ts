import type { Database } from "./database.ts";
import type { SecretBox } from "./secret_box.ts";

/** A dashboard single sign-on the browser has started and the provider has not answered yet. */
export interface SsoPendingLogin {
  /** SHA-256 (hex) of the `state` sent to the provider: the row's key, never the state itself. */
  readonly stateHash: string;
  /** SHA-256 (hex) of the browser-binding cookie the start set. */
  readonly bindingHash: string;
  /** The redirect URI the authorization request named; the token exchange must repeat it exactly. */
  readonly redirectUri: string;
  /** The dashboard path to land on after sign-in. */
  readonly next: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** What a pending login keeps secret, stored sealed with the secret key. */
export interface SsoLoginSecrets {
  readonly verifier: string;
  readonly nonce: string;
}

interface Row {
  state_hash: string;
  binding_hash: string;
  redirect_uri: string;
  next_path: string;
  secrets: string;
  created_at: number;
  expires_at: number;
}

/**
 * The sso_pending_logins table: single sign-ons in progress, shared by every process on the database so any
 * worker or instance can take the provider's callback. A login is taken once: the delete decides who.
 */
export class SsoLoginsRepo {
  readonly #db: Database;
  readonly #box: SecretBox;

  constructor(db: Database, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  /** Stores a new pending login (and drops expired ones, so abandoned sign-ins do not pile up). */
  put(login: SsoPendingLogin, secrets: SsoLoginSecrets): void {
    this.#db.prepare("DELETE FROM sso_pending_logins WHERE expires_at <= ?").run(login.createdAt);
    this.#db.prepare(
      `INSERT INTO sso_pending_logins (state_hash, binding_hash, redirect_uri, next_path, secrets, created_at,
         expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      login.stateHash,
      login.bindingHash,
      login.redirectUri,
      login.next,
      this.#box.seal(JSON.stringify(secrets)),
      login.createdAt,
      login.expiresAt,
    );
  }

  /**
   * Takes a pending login by state hash: read, then deleted. Undefined when there is none or another process
   * took it between the read and the delete (only the caller whose delete removed the row gets it). An expired
   * login is returned too, so the caller can say it expired; it is gone either way.
   */
  take(stateHash: string): { login: SsoPendingLogin; secrets: SsoLoginSecrets } | undefined {
    const row = this.#db.prepare("SELECT * FROM sso_pending_logins WHERE state_hash = ?").get(stateHash) as
      | Row
      | undefined;
    if (row === undefined) return undefined;
    const removed = this.#db.prepare("DELETE FROM sso_pending_logins WHERE state_hash = ?").run(stateHash);
    if (Number(removed.changes) !== 1) return undefined;
    return {
      login: {
        stateHash: row.state_hash,
        bindingHash: row.binding_hash,
        redirectUri: row.redirect_uri,
        next: row.next_path,
        createdAt: Number(row.created_at),
        expiresAt: Number(row.expires_at),
      },
      secrets: JSON.parse(this.#box.open(row.secrets)) as SsoLoginSecrets,
    };
  }
}
