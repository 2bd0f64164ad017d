import type { ApiType } from "../config/mod.ts";
import { type CredentialBlob, parseCredential } from "./blob.ts";
import { chatGptAccount } from "./jwt_claims.ts";

/** What the dashboard may know about a stored credential: never a token. */
export interface CredentialStatus {
  readonly kind: "bare_token" | "oauth_blob" | "unreadable";
  /** Unix seconds, when known. */
  readonly expiresAt: number | null;
  /** A refresh token is stored: the gateway renews the access token itself. */
  readonly refreshable: boolean;
  /** An email, login or account id the tokens name, when they do. */
  readonly account: string | null;
}

/** The non-secret status of a subscription credential. */
export function credentialStatus(apiType: ApiType, apiKey: string, nowS: number): CredentialStatus {
  let blob: CredentialBlob;
  try {
    blob = parseCredential(apiKey, nowS);
  } catch {
    return { kind: "unreadable", expiresAt: null, refreshable: false, account: null };
  }
  return {
    kind: blob.bare ? "bare_token" : "oauth_blob",
    expiresAt: blob.expiresAt ?? null,
    refreshable: blob.refreshToken !== undefined,
    account: accountLabel(apiType, blob),
  };
}

const LABEL_KEYS = ["email", "account_email", "emailAddress", "login", "account_label", "label", "username"];

/** The account a credential belongs to, from what the sign-in stored beside it or the token's claims. */
export function accountLabel(apiType: ApiType, blob: CredentialBlob): string | null {
  for (const key of LABEL_KEYS) {
    const value = blob.extra[key];
    if (typeof value === "string" && value !== "") return value;
  }
  const account = blob.extra.account as Record<string, unknown> | undefined;
  if (account && typeof account.email_address === "string") return account.email_address;
  if (apiType === "responses_oauth") {
    const claims = chatGptAccount(blob.idToken, blob.accessToken);
    const who = claims.email ?? claims.accountId;
    if (who) return claims.plan ? `${who} (${claims.plan})` : who;
  }
  return null;
}
