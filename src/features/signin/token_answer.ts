import { numberField, type OAuthAnswer, oauthError, stringField } from "./oauth_http.ts";

/**
 * What a finished sign-in stores as the provider's `api_key`: the spec's credential blob. `expires_at` is
 * Unix seconds; the id token stays beside it because the account id lives in its claims.
 */
export interface SignedInCredential {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly expires_at?: number;
  readonly id_token?: string;
  /**
   * Fields the kind's calls and refresh need beside the tokens (AWS: the registered client, region, start
   * URL). They are stored inside the sealed blob like the tokens; the client secret among them is redacted
   * like a token (src/credentials/blob.ts `credentialSecrets`).
   */
  readonly extra?: Readonly<Record<string, string | number>>;
}

/** A token endpoint's answer read as a credential, or the reason it is not one. */
export type TokenOutcome =
  | { readonly ok: true; readonly credential: SignedInCredential }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** Reads a token endpoint's answer (authorization-code exchange or a finished device poll). */
export function readTokenAnswer(answer: OAuthAnswer, nowMs: number): TokenOutcome {
  const error = oauthError(answer.body);
  if (error) return { ok: false, code: error.code, message: error.text };
  const accessToken = stringField(answer.body, "access_token");
  if (answer.status < 200 || answer.status >= 300 || !accessToken) {
    return {
      ok: false,
      code: "invalid_answer",
      message: `the token endpoint answered HTTP ${answer.status} without an access token`,
    };
  }
  const refreshToken = stringField(answer.body, "refresh_token");
  const idToken = stringField(answer.body, "id_token");
  const expiresIn = numberField(answer.body, "expires_in");
  const expiresAt = expiresIn !== undefined && expiresIn > 0
    ? Math.floor(nowMs / 1000) + Math.floor(expiresIn)
    : undefined;
  return {
    ok: true,
    credential: {
      access_token: accessToken,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
      ...(idToken ? { id_token: idToken } : {}),
    },
  };
}
