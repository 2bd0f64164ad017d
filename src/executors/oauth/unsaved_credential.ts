import { type CredentialBlob, parseCredential } from "../../credentials/mod.ts";
import { RefreshError } from "./refresh_strategies.ts";

/**
 * The id of the stand-in provider for a credential typed into the provider form but not saved yet (Fetch
 * Models). No configured provider can have it: ids start with a letter or a digit.
 */
export const UNSAVED_PROVIDER_ID = "(unsaved)";

/**
 * An unsaved credential is used as it is and never refreshed: a refresh would spend a (single-use) refresh
 * token and nothing would store the new one. One that cannot work says what to do instead.
 */
export function unsavedCredential(value: string, nowS: number): CredentialBlob {
  if (value.trim() === "") {
    throw new RefreshError("no credential given: paste one, or save the provider and sign in", true);
  }
  let blob: CredentialBlob;
  try {
    blob = parseCredential(value, nowS);
  } catch (error) {
    throw new RefreshError(`the credential cannot be used: ${(error as Error).message}`, true);
  }
  if (blob.accessToken === "") {
    throw new RefreshError("the credential has no access token: save the provider first, then sign in", true);
  }
  if (blob.expiresAt !== undefined && nowS >= blob.expiresAt) {
    const when = new Date(blob.expiresAt * 1000).toISOString();
    throw new RefreshError(
      `the access token expired at ${when}; save the provider first: the gateway then refreshes it and ` +
        "stores the new token (a refresh of an unsaved credential would spend a refresh token nothing keeps)",
      false,
    );
  }
  return blob;
}
