/**
 * What counts as a key: cleaning pasted text, the length and shape rules, OAuth credential blobs in
 * their canonical form, and the masked form shown everywhere instead of the key.
 */
import { maskSecret } from "../security/mask.ts";

/** Shortest and longest plain key accepted; credential blobs may be longer. */
export const MIN_KEY_LENGTH = 16;
export const MAX_KEY_LENGTH = 512;
export const MAX_CREDENTIAL_LENGTH = 16_384;

/** A cleaned key, or why it was refused. */
export type CleanKey = { readonly value: string; readonly blob: boolean } | { readonly error: string };

/** True when the text is a JSON credential (an OAuth blob) rather than a bare key. */
export function looksLikeBlob(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith("{") || t.startsWith("[");
}

/**
 * Trims pasted text and applies the shape rules. Plain keys lose inner whitespace (a key wrapped by an
 * editor); blobs are re-serialised in their canonical form so the same credential always hashes alike.
 */
export function cleanKey(text: string): CleanKey {
  const raw = text.replaceAll("\r", "").trim();
  if (raw === "") return { error: "empty key" };
  if (looksLikeBlob(raw)) {
    if (raw.length > MAX_CREDENTIAL_LENGTH) {
      return { error: `credential is longer than ${MAX_CREDENTIAL_LENGTH} characters` };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { error: "credential is not valid JSON" };
    }
    const blob = canonicalBlob(parsed);
    return blob === null
      ? { error: "credential JSON has no access_token" }
      : { value: JSON.stringify(blob), blob: true };
  }
  const value = raw.replace(/\s+/g, "");
  if (value.length < MIN_KEY_LENGTH) return { error: `key is shorter than ${MIN_KEY_LENGTH} characters` };
  if (value.length > MAX_KEY_LENGTH) return { error: `key is longer than ${MAX_KEY_LENGTH} characters` };
  if (/^(https?:\/\/|\/|\.)/i.test(value)) return { error: "looks like a URL or a path, not a key" };
  if (/^\d+$/.test(value)) return { error: "all digits: not a key" };
  return { value, blob: false };
}

/** An OAuth credential in the one shape the gateway stores (snake_case, expiry in Unix seconds). */
export interface CredentialBlob {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly expires_at?: number;
  readonly id_token?: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}

function str(o: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = o[n];
    if (typeof v === "string" && v.trim() !== "") return v.trim();
  }
  return undefined;
}

function expiry(o: Record<string, unknown>): number | undefined {
  const v = o.expires_at ?? o.expiresAt ?? o.expiry ?? o.expired;
  if (typeof v === "number" && Number.isFinite(v)) return v > 1e12 ? Math.floor(v / 1000) : Math.floor(v);
  if (typeof v === "string" && v !== "") {
    const ms = /^\d+$/.test(v) ? Number(v) * (v.length > 12 ? 1 : 1000) : Date.parse(v);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  return undefined;
}

/**
 * The canonical blob of a pasted credential object (the origin's snake_case blob, camelCase peer
 * connections, CLIProxyAPI auth files), or null when it carries no access token. Fields that identify
 * the account (workspace, project) are kept under `extra`.
 */
export function canonicalBlob(input: unknown): CredentialBlob | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  const o = input as Record<string, unknown>;
  const nested = typeof o.token === "object" && o.token !== null ? o.token as Record<string, unknown> : {};
  const access = str(o, "access_token", "accessToken") ?? str(nested, "access_token", "accessToken");
  if (access === undefined) return null;
  const refresh = str(o, "refresh_token", "refreshToken") ?? str(nested, "refresh_token", "refreshToken");
  const idToken = str(o, "id_token", "idToken");
  const specific = typeof o.providerSpecificData === "object" && o.providerSpecificData !== null
    ? o.providerSpecificData as Record<string, unknown>
    : {};
  const given = typeof o.extra === "object" && o.extra !== null ? o.extra as Record<string, unknown> : {};
  const extra: Record<string, unknown> = { ...given };
  const workspace = str(given, "workspaceId", "chatgptAccountId") ?? str(o, "workspaceId", "account_id") ??
    str(specific, "chatgptAccountId");
  if (workspace !== undefined) extra.workspaceId = workspace;
  const project = str(given, "projectId") ?? str(o, "projectId", "project_id") ?? str(specific, "projectId");
  if (project !== undefined) extra.projectId = project;
  const expires = expiry(o) ?? expiry(nested);
  return {
    access_token: access,
    ...(refresh !== undefined ? { refresh_token: refresh } : {}),
    ...(expires !== undefined ? { expires_at: expires } : {}),
    ...(idToken !== undefined ? { id_token: idToken } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

/** The masked form of a key or blob (a blob shows its access token masked). */
export function maskKey(value: string): string {
  if (looksLikeBlob(value)) {
    try {
      const blob = JSON.parse(value) as CredentialBlob;
      return `oauth:${maskSecret(blob.access_token)}`;
    } catch {
      return "oauth:…";
    }
  }
  return maskSecret(value);
}
