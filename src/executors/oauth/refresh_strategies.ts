import { type CredentialBlob, mergeTokenResponse, type OAuthKindFacts } from "../../credentials/mod.ts";
import { oauthErrorCode, postToken } from "./token_endpoint.ts";

/** A refresh that did not give a usable credential. `reSignIn`: the token is dead, only a new sign-in helps. */
export class RefreshError extends Error {
  readonly reSignIn: boolean;
  /** The token endpoint asked to wait (a 429 with Retry-After), in ms. */
  readonly retryAfterMs: number | null;
  constructor(message: string, reSignIn: boolean, retryAfterMs: number | null = null) {
    super(message);
    this.name = "RefreshError";
    this.reSignIn = reSignIn;
    this.retryAfterMs = retryAfterMs;
  }
}

/** What a strategy may use: the kind's facts (overrides applied), a fetch, the clock in seconds. */
export interface RefreshContext {
  readonly facts: OAuthKindFacts;
  readonly fetcher: typeof fetch;
  readonly nowS: () => number;
}

/** How one kind turns a refresh token into a new credential. Kinds with other protocols add their own. */
export interface RefreshStrategy {
  refresh(blob: CredentialBlob, ctx: RefreshContext): Promise<CredentialBlob>;
}

/** Codes that say the refresh token is dead (reused, revoked, expired): re-sign-in is the only way out. */
const DEAD_TOKEN_CODES = new Set([
  "invalid_grant",
  "refresh_token_reused",
  "refresh_token_expired",
  "invalid_token",
]);

/** The standard OAuth 2 `refresh_token` grant, JSON or form as the kind wants, `scope` when it asks. */
export const oauth2Refresh: RefreshStrategy = {
  async refresh(blob, { facts, fetcher, nowS }) {
    if (facts.tokenUrl === null || blob.refreshToken === undefined) {
      throw new RefreshError(`${facts.label}: this credential has no refresh token; sign in again`, true);
    }
    const fields: Record<string, string> = {
      grant_type: "refresh_token",
      refresh_token: blob.refreshToken,
      client_id: facts.clientId,
    };
    if (facts.refreshScope) fields.scope = facts.refreshScope;
    if (facts.clientSecret) fields.client_secret = facts.clientSecret;
    let answer;
    try {
      answer = await postToken(fetcher, facts.tokenUrl, fields, facts.tokenBody);
    } catch (error) {
      throw new RefreshError(`${facts.label}: token refresh failed: ${(error as Error).message}`, false);
    }
    if (answer.status >= 200 && answer.status < 300 && answer.json !== null) {
      try {
        return mergeTokenResponse(blob, answer.json, nowS());
      } catch (error) {
        throw new RefreshError(`${facts.label}: ${(error as Error).message}`, false);
      }
    }
    const code = oauthErrorCode(answer);
    const dead = code !== undefined && DEAD_TOKEN_CODES.has(code);
    const retryAfter = answer.status === 429 ? Number(answer.header("retry-after")) : NaN;
    throw new RefreshError(
      `${facts.label}: token refresh answered HTTP ${answer.status}${code ? ` (${code})` : ""}` +
        (dead ? "; the refresh token is no longer valid: sign in again" : ""),
      dead,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
    );
  },
};
