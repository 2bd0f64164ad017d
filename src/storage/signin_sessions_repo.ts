import type { Database } from "./database.ts";
import { transaction } from "./database.ts";
import type { SecretBox } from "./secret_box.ts";

/**
 * Where a stored sign-in stands. `completing` is a pending sign-in that one process has claimed to trade its
 * answer for a credential and save it: no other process may claim, cancel or finish it meanwhile.
 */
export type SigninRowStatus = "pending" | "completing" | "succeeded" | "failed" | "cancelled" | "expired";

/** The end states a sign-in can be finished with. */
export type SigninEndStatus = Exclude<SigninRowStatus, "pending" | "completing">;

/** One sign-in as stored, secrets left out. */
export interface SigninRecord {
  readonly id: string;
  readonly owner: string;
  readonly providerId: string;
  readonly flow: "device" | "pkce";
  readonly status: SigninRowStatus;
  readonly message: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly finishedAt: number | null;
  readonly device?: {
    readonly userCode: string;
    readonly verificationUri: string;
    readonly verificationUriComplete?: string;
    readonly intervalS: number;
  };
  readonly pkce?: { readonly authorizeUrl: string; readonly redirectUri: string };
}

/** What a sign-in keeps secret, stored sealed with the secret key. */
export interface SigninSecrets {
  readonly device?: {
    readonly deviceCode: string;
    /** AWS: the client registered for this sign-in. */
    readonly client?: { readonly clientId: string; readonly clientSecret: string };
  };
  readonly pkce?: { readonly verifier: string; readonly state: string };
}

interface Row {
  id: string;
  owner: string;
  provider_id: string;
  flow: string;
  status: string;
  message: string | null;
  created_at: number;
  expires_at: number;
  finished_at: number | null;
  user_code: string | null;
  verification_uri: string | null;
  verification_uri_complete: string | null;
  interval_s: number | null;
  authorize_url: string | null;
  redirect_uri: string | null;
}

const VIEW_COLUMNS =
  `id, owner, provider_id, flow, status, message, created_at, expires_at, finished_at, user_code,
  verification_uri, verification_uri_complete, interval_s, authorize_url, redirect_uri`;

/**
 * The signin_sessions table: sign-ins in progress, shared by every process on the database. Each change is
 * one conditional statement, so two processes never both claim, finish or cancel the same sign-in.
 */
export class SigninSessionsRepo {
  readonly #db: Database;
  readonly #box: SecretBox;

  constructor(db: Database, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  /**
   * Stores a new pending sign-in, cancelling the provider's open one (with `replacedMessage`), unless
   * `maxOpen` sign-ins are open already: then nothing changes and the answer is false. One transaction; a
   * unique index keeps one pending sign-in per provider even when two processes start one at once.
   */
  open(record: SigninRecord, secrets: SigninSecrets, maxOpen: number, replacedMessage: string): boolean {
    for (let attempt = 0;; attempt++) {
      try {
        return transaction(this.#db, () => {
          this.#db.prepare(
            `UPDATE signin_sessions SET status = 'cancelled', message = ?, finished_at = ?, device_secret = '',
               pkce_secret = ''
             WHERE provider_id = ? AND status = 'pending'`,
          ).run(replacedMessage, record.createdAt, record.providerId);
          if (this.countOpen() >= maxOpen) return false;
          this.#insert(record, secrets);
          return true;
        });
      } catch (error) {
        // Another process's sign-in for the provider committed between our cancel and insert: cancel it too.
        if (attempt < 3 && /unique|duplicate key/i.test((error as Error).message)) continue;
        throw error;
      }
    }
  }

  #insert(record: SigninRecord, secrets: SigninSecrets): void {
    const d = record.device, p = record.pkce;
    this.#db.prepare(
      `INSERT INTO signin_sessions (id, owner, provider_id, flow, status, message, created_at, expires_at,
         finished_at, user_code, verification_uri, verification_uri_complete, interval_s, authorize_url,
         redirect_uri, device_secret, pkce_secret)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      record.id,
      record.owner,
      record.providerId,
      record.flow,
      record.status,
      record.message,
      record.createdAt,
      record.expiresAt,
      record.finishedAt,
      d?.userCode ?? null,
      d?.verificationUri ?? null,
      d?.verificationUriComplete ?? null,
      d?.intervalS ?? null,
      p?.authorizeUrl ?? null,
      p?.redirectUri ?? null,
      secrets.device ? this.#box.seal(JSON.stringify(secrets.device)) : "",
      secrets.pkce ? this.#box.seal(JSON.stringify(secrets.pkce)) : "",
    );
  }

  /** One sign-in, secrets left out. */
  get(id: string): SigninRecord | undefined {
    const row = this.#db.prepare(`SELECT ${VIEW_COLUMNS} FROM signin_sessions WHERE id = ?`).get(id) as
      | Row
      | undefined;
    return row === undefined ? undefined : fromRow(row);
  }

  /** A sign-in's secrets, unsealed (for the process that polls or completes it). */
  secrets(id: string): SigninSecrets {
    const row = this.#db.prepare("SELECT device_secret, pkce_secret FROM signin_sessions WHERE id = ?")
      .get(id) as { device_secret: string; pkce_secret: string } | undefined;
    if (row === undefined) return {};
    return {
      ...(row.device_secret ? { device: JSON.parse(this.#box.open(row.device_secret)) } : {}),
      ...(row.pkce_secret ? { pkce: JSON.parse(this.#box.open(row.pkce_secret)) } : {}),
    };
  }

  /**
   * How many sign-ins are open (pending or being completed), every provider together; with `replacing`,
   * leaving out that provider's pending one (a new sign-in for it replaces it).
   */
  countOpen(replacing?: string): number {
    const row = this.#db.prepare(
      `SELECT count(*) AS n FROM signin_sessions WHERE status IN ('pending', 'completing')
         AND NOT (provider_id = ? AND status = 'pending')`,
    ).get(replacing ?? "") as { n: number };
    return Number(row.n);
  }

  /** Records a device sign-in's polling interval and last note while it is pending; false once it is not. */
  progress(id: string, intervalS: number, message: string | null): boolean {
    return this.#changed(
      this.#db.prepare(
        "UPDATE signin_sessions SET interval_s = ?, message = ? WHERE id = ? AND status = 'pending'",
      ).run(intervalS, message, id),
    );
  }

  /**
   * Claims a pending sign-in that has not expired for completion (pending → completing). True for exactly
   * one caller: the one that may exchange the code and save the credential.
   */
  claim(id: string, nowMs: number): boolean {
    return this.#changed(
      this.#db.prepare(
        `UPDATE signin_sessions SET status = 'completing'
         WHERE id = ? AND status = 'pending' AND expires_at > ?`,
      ).run(id, nowMs),
    );
  }

  /**
   * Ends a sign-in that is in one of the `from` states; false when it was not (another process ended it).
   * The secrets are dropped: an ended sign-in needs none.
   */
  finish(
    id: string,
    from: "pending" | "completing",
    status: SigninEndStatus,
    message: string | null,
    nowMs: number,
  ): boolean {
    return this.#changed(
      this.#db.prepare(
        `UPDATE signin_sessions SET status = ?, message = ?, finished_at = ?, device_secret = '',
           pkce_secret = ''
         WHERE id = ? AND status = ?`,
      ).run(status, message, nowMs, id, from),
    );
  }

  /**
   * Housekeeping: pending sign-ins past their expiry end as expired; ones claimed but never finished
   * (the process died mid-exchange) end as failed `staleClaimMs` after their expiry; sign-ins that ended
   * before `forgetBefore` are deleted.
   */
  sweep(nowMs: number, staleClaimMs: number, forgetBefore: number, expiredMessage: string): void {
    this.#db.prepare(
      `UPDATE signin_sessions SET status = 'expired', message = ?, finished_at = ?, device_secret = '',
         pkce_secret = ''
       WHERE status = 'pending' AND expires_at <= ?`,
    ).run(expiredMessage, nowMs, nowMs);
    this.#db.prepare(
      `UPDATE signin_sessions SET status = 'failed', message = ?, finished_at = ?, device_secret = '',
         pkce_secret = ''
       WHERE status = 'completing' AND expires_at <= ?`,
    ).run(
      "The sign-in was interrupted while it was being completed; start again",
      nowMs,
      nowMs - staleClaimMs,
    );
    this.#db.prepare("DELETE FROM signin_sessions WHERE finished_at IS NOT NULL AND finished_at < ?")
      .run(forgetBefore);
  }

  #changed(result: { changes: number | bigint }): boolean {
    return Number(result.changes) > 0;
  }
}

function fromRow(r: Row): SigninRecord {
  const base = {
    id: r.id,
    owner: r.owner,
    providerId: r.provider_id,
    flow: r.flow === "pkce" ? "pkce" as const : "device" as const,
    status: r.status as SigninRowStatus,
    message: r.message,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  };
  if (r.user_code !== null && r.verification_uri !== null) {
    return {
      ...base,
      device: {
        userCode: r.user_code,
        verificationUri: r.verification_uri,
        ...(r.verification_uri_complete !== null
          ? { verificationUriComplete: r.verification_uri_complete }
          : {}),
        intervalS: Number(r.interval_s ?? 0),
      },
    };
  }
  if (r.authorize_url !== null && r.redirect_uri !== null) {
    return { ...base, pkce: { authorizeUrl: r.authorize_url, redirectUri: r.redirect_uri } };
  }
  return base;
}
