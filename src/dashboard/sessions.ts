import type { DashboardContext } from "./context.ts";
import type { DashboardIdentity } from "./identity.ts";
import { generateToken, hashApiKey } from "../security/api_key.ts";

/** Dashboard sessions last this long (the cookie's Max-Age, in seconds). */
export const SESSION_MAX_AGE_S = 30 * 24 * 3600;

/**
 * Sessions opened by single sign-on last a working day: the provider's decision (account disabled, group
 * removed) reaches the dashboard at the next sign-in, so it should come soon.
 */
export const SSO_SESSION_MAX_AGE_S = 12 * 3600;

/** Why a key cannot open the dashboard, or null when it can. */
export function loginRefusal(identity: DashboardIdentity | null): string | null {
  if (identity === null) return "Invalid API key";
  switch (identity.kind) {
    case "static":
    case "sso":
      return null;
    case "db":
      return identity.canLogin ? null : "This API key cannot sign in to the dashboard";
    case "anonymous":
      return "Invalid API key";
  }
}

/**
 * Dashboard sign-in sessions. The cookie carries a random token; only its SHA-256 is stored, with the key
 * that opened it. Every lookup re-checks that key against the in-memory control plane, so revoking a key
 * or turning off its can_login ends its sessions at once.
 */
export class DashboardSessions {
  readonly #state: DashboardContext["state"];
  readonly #sessions: DashboardContext["reads"]["sessions"];
  readonly #ofKey: DashboardContext["identity"]["ofKey"];
  /** Static keys by the keyed fingerprint sessions store, with their key hash and label. */
  readonly #staticKeys: Map<string, { keyHash: string; label: string }>;
  readonly #fingerprint: (text: string) => string;
  /** The configured provider's issuer (null without `sso:`). */
  readonly #ssoIssuer: string | null;

  /** `fingerprint` is a keyed hash (the server's secret), used for what sessions store of static keys. */
  constructor(ctx: Pick<DashboardContext, "state" | "reads" | "fingerprint" | "identity">) {
    const { state, fingerprint } = ctx;
    this.#ssoIssuer = state.config.sso?.issuer ?? null;
    this.#state = state;
    this.#sessions = ctx.reads.sessions;
    this.#ofKey = ctx.identity.ofKey;
    this.#fingerprint = fingerprint;
    this.#staticKeys = new Map(state.config.apiKeys.map((k) => {
      const keyHash = hashApiKey(k.key);
      return [fingerprint(keyHash), { keyHash, label: k.label }];
    }));
  }

  /** Opens a session for an identity that may sign in; returns the cookie token. */
  open(identity: DashboardIdentity, now: number): string {
    if (loginRefusal(identity) !== null || identity.kind === "anonymous") {
      throw new Error("identity cannot sign in");
    }
    const token = generateToken();
    this.#sessions.create({
      tokenHash: hashApiKey(token),
      keyId: identity.kind === "db" ? identity.keyId : null,
      // A keyed hash: a leaked sessions table must not let anyone test guesses of a static key offline.
      staticKeyHash: identity.kind === "static" ? this.#fingerprint(identity.keyHash) : null,
      createdAt: now,
      expiresAt: now + (identity.kind === "sso" ? SSO_SESSION_MAX_AGE_S : SESSION_MAX_AGE_S) * 1000,
      ...(identity.kind === "sso"
        ? {
          sso: {
            issuer: identity.issuer,
            subject: identity.subject,
            email: identity.email,
            name: identity.name,
            role: identity.role,
          },
        }
        : {}),
    });
    return token;
  }

  /** The identity behind a cookie token, or null when the session is unknown, expired or its key lost access. */
  resolve(token: string, now: number): DashboardIdentity | null {
    if (token === "" || token.length > 200) return null;
    const session = this.#sessions.get(hashApiKey(token));
    if (!session || session.expiresAt <= now) return null;
    if (session.sso !== undefined) {
      // Only while single sign-on with that provider is configured: removing `sso:` ends its sessions.
      if (session.sso.issuer !== this.#ssoIssuer) return null;
      return { kind: "sso", ...session.sso };
    }
    if (session.staticKeyHash !== null) {
      const key = this.#staticKeys.get(session.staticKeyHash);
      return key === undefined ? null : { kind: "static", label: key.label, keyHash: key.keyHash };
    }
    const key = this.#state.keys.find((k) => k.id === session.keyId);
    if (!key || key.status !== "active" || !key.canLogin) return null;
    return this.#ofKey(key);
  }

  /** Ends the session of a cookie token. */
  close(token: string): void {
    if (token !== "") this.#sessions.delete(hashApiKey(token));
  }
}
