/**
 * What counts as a key: cleaning pasted text, the length and shape rules, and the masked form shown
 * everywhere instead of the key. OAuth blobs are parsed by the credential core (src/credentials).
 */
import { CredentialFormatError, parseCredential, serializeCredential } from "../credentials/mod.ts";
import { maskSecret } from "../security/mask.ts";

/** Shortest and longest plain key accepted; credential blobs may be longer. */
export const MIN_KEY_LENGTH = 16;
export const MAX_KEY_LENGTH = 512;
export const MAX_CREDENTIAL_LENGTH = 16_384;

/** A cleaned key, or why it was refused. */
export type CleanKey = { readonly value: string; readonly blob: boolean } | { readonly error: string };

/** True when the text is a JSON credential (an OAuth blob) rather than a bare key. */
export function looksLikeBlob(text: string): boolean {
  return text.trimStart().startsWith("{");
}

/**
 * Trims pasted text and applies the shape rules. Plain keys lose inner whitespace (a key wrapped by an
 * editor); OAuth blobs (JSON objects) are re-serialised in the credential core's canonical form.
 */
export function cleanKey(text: string, nowS: number): CleanKey {
  const raw = text.replaceAll("\r", "").trim();
  if (raw === "") return { error: "empty key" };
  if (looksLikeBlob(raw)) {
    if (raw.length > MAX_CREDENTIAL_LENGTH) {
      return { error: `credential is longer than ${MAX_CREDENTIAL_LENGTH} characters` };
    }
    try {
      // The credential core's canonical form: the same credential always hashes alike.
      return { value: serializeCredential(parseCredential(raw, nowS)), blob: true };
    } catch (error) {
      if (error instanceof CredentialFormatError) return { error: error.message };
      throw error;
    }
  }
  const value = raw.replace(/\s+/g, "");
  if (value.length < MIN_KEY_LENGTH) return { error: `key is shorter than ${MIN_KEY_LENGTH} characters` };
  if (value.length > MAX_KEY_LENGTH) return { error: `key is longer than ${MAX_KEY_LENGTH} characters` };
  if (/^(https?:\/\/|\/|\.)/i.test(value)) return { error: "looks like a URL or a path, not a key" };
  if (/^\d+$/.test(value)) return { error: "all digits: not a key" };
  return { value, blob: false };
}

/** The masked form of a key or blob (a blob shows its access token masked). */
export function maskKey(value: string): string {
  if (looksLikeBlob(value)) {
    try {
      const blob = parseCredential(value, 0);
      return `oauth:${maskSecret(blob.accessToken || blob.refreshToken || "")}`;
    } catch {
      return "oauth:…";
    }
  }
  return maskSecret(value);
}
