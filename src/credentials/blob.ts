/**
 * The credential a subscription provider stores as its `api_key`: a bare access token, or the spec's JSON
 * blob (`access_token`, `refresh_token?`, `expires_at?` in Unix seconds). Pure: the caller passes the time.
 */

/** One parsed credential. Provider-specific fields (account id, plan, project) travel in `extra`. */
export interface CredentialBlob {
  readonly accessToken: string;
  /** Absent for long-lived tokens (e.g. Claude `setup-token`, a GitHub token): never refreshed. */
  readonly refreshToken?: string;
  /** Unix seconds; absent when unknown. */
  readonly expiresAt?: number;
  readonly idToken?: string;
  /** Fields kept verbatim beside the tokens (an account id, a plan, a region). */
  readonly extra: Readonly<Record<string, unknown>>;
  /** The stored value was a bare token, not JSON. */
  readonly bare: boolean;
}

/** A stored credential that is JSON but not a credential blob. */
export class CredentialFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CredentialFormatError";
  }
}

const ACCESS = ["access_token", "accessToken", "access", "token", "api_key", "apiKey"];
const REFRESH = ["refresh_token", "refreshToken", "refresh"];
const ID_TOKEN = ["id_token", "idToken"];
/** Absolute expiry: Unix seconds, Unix milliseconds or an ISO date, under the names peers write. */
const EXPIRES_AT = ["expires_at", "expiresAt", "expiry", "expired", "expiry_date", "expires"];
/** Relative expiry in seconds from the time the blob was parsed. */
const EXPIRES_IN = ["expires_in", "expiresIn"];
/** Wrappers other tools write around the blob (Claude Code's credentials file, Codex's auth.json). */
const WRAPPERS = ["claudeAiOauth", "tokens"];
const KNOWN = new Set([...ACCESS, ...REFRESH, ...ID_TOKEN, ...EXPIRES_AT, ...EXPIRES_IN, "extra"]);

/** Whether a stored api_key is a JSON blob rather than a bare token. */
export function isCredentialJson(text: string): boolean {
  return text.trimStart().startsWith("{");
}

/**
 * Parses a provider's `api_key`. `nowS` (Unix seconds) turns a relative `expires_in` into `expiresAt`.
 * Throws CredentialFormatError for JSON that is broken or holds no token (the message names no secret).
 */
export function parseCredential(text: string, nowS: number): CredentialBlob {
  const trimmed = text.trim();
  if (!isCredentialJson(trimmed)) return { accessToken: trimmed, extra: {}, bare: true };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    throw new CredentialFormatError("the credential starts with '{' but is not valid JSON");
  }
  let record = asRecord(value);
  const outer: Record<string, unknown> = {};
  for (const name of WRAPPERS) {
    const inner = asRecord(record[name]);
    if (Object.keys(inner).length > 0 && pick(inner, ACCESS, REFRESH) !== undefined) {
      for (const [k, v] of Object.entries(record)) if (k !== name) outer[k] = v;
      record = inner;
      break;
    }
  }
  const accessToken = stringField(record, ACCESS) ?? "";
  const refreshToken = stringField(record, REFRESH);
  if (accessToken === "" && refreshToken === undefined) {
    throw new CredentialFormatError(
      "the credential JSON has neither an access_token nor a refresh_token (aliases accepted: " +
        "accessToken, token, refreshToken)",
    );
  }
  const extra: Record<string, unknown> = { ...outer, ...asRecord(record.extra) };
  for (const [k, v] of Object.entries(record)) if (!KNOWN.has(k)) extra[k] = v;
  const expiresAt = absoluteExpiry(record) ?? relativeExpiry(record, nowS);
  const idToken = stringField(record, ID_TOKEN);
  return {
    accessToken,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(idToken !== undefined ? { idToken } : {}),
    extra,
    bare: false,
  };
}

/** The blob as the spec's JSON (`extra` nested), the form the gateway stores after a refresh or sign-in. */
export function serializeCredential(blob: CredentialBlob): string {
  if (blob.bare && blob.refreshToken === undefined && blob.expiresAt === undefined) return blob.accessToken;
  const out: Record<string, unknown> = { access_token: blob.accessToken };
  if (blob.refreshToken !== undefined) out.refresh_token = blob.refreshToken;
  if (blob.expiresAt !== undefined) out.expires_at = blob.expiresAt;
  if (blob.idToken !== undefined) out.id_token = blob.idToken;
  if (Object.keys(blob.extra).length > 0) out.extra = blob.extra;
  return JSON.stringify(out);
}

/**
 * Extras that are secrets too: a registered OAuth client's secret (Kiro's Builder ID / Identity Center
 * sign-ins store `clientSecret` beside the tokens, and it refreshes them), and any token or password a
 * peer's file keeps there. The rest of `extra` (region, project, account id) is not secret.
 */
const SECRET_EXTRA = /secret|token|password/i;

/** Every secret a blob holds, for redaction: its tokens and the secret extras (a client secret). */
export function credentialSecrets(blob: CredentialBlob): string[] {
  const extras = Object.entries(blob.extra)
    .filter(([key, value]) => SECRET_EXTRA.test(key) && typeof value === "string")
    .map(([, value]) => value as string);
  return [blob.accessToken, blob.refreshToken, blob.idToken, ...extras].filter((s): s is string => !!s);
}

/** A stored api_key's secrets whatever its shape (a broken blob counts as one secret). */
export function secretsOf(apiKey: string): string[] {
  if (!isCredentialJson(apiKey)) return apiKey === "" ? [] : [apiKey];
  try {
    return credentialSecrets(parseCredential(apiKey, 0));
  } catch {
    return [apiKey];
  }
}

/**
 * Merges a token endpoint's answer into a blob: new tokens replace old ones, a missing refresh token keeps
 * the old one (some servers rotate only sometimes), `expires_in` counts from `nowS`.
 */
export function mergeTokenResponse(blob: CredentialBlob, body: unknown, nowS: number): CredentialBlob {
  const record = asRecord(body);
  const accessToken = stringField(record, ACCESS);
  if (accessToken === undefined || accessToken === "") {
    throw new CredentialFormatError("the token endpoint answered without an access_token");
  }
  const refreshToken = stringField(record, REFRESH) ?? blob.refreshToken;
  const idToken = stringField(record, ID_TOKEN) ?? blob.idToken;
  const expiresAt = relativeExpiry(record, nowS) ?? absoluteExpiry(record);
  return {
    accessToken,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(idToken !== undefined ? { idToken } : {}),
    extra: blob.extra,
    bare: false,
  };
}

function absoluteExpiry(record: Record<string, unknown>): number | undefined {
  const value = pick(record, EXPIRES_AT);
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return toSeconds(value);
  if (typeof value !== "string" || value.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return toSeconds(Number(value));
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : Math.floor(parsed / 1000);
}

function relativeExpiry(record: Record<string, unknown>, nowS: number): number | undefined {
  const value = Number(pick(record, EXPIRES_IN));
  return Number.isFinite(value) && value > 0 ? Math.floor(nowS + value) : undefined;
}

/** Unix seconds from seconds or milliseconds (anything past year 5138 in seconds is milliseconds). */
function toSeconds(value: number): number {
  return Math.floor(value > 1e11 ? value / 1000 : value);
}

function pick(record: Record<string, unknown>, ...names: string[][]): unknown {
  for (const list of names) {
    for (const name of list) if (record[name] !== undefined && record[name] !== null) return record[name];
  }
  return undefined;
}

function stringField(record: Record<string, unknown>, names: string[]): string | undefined {
  const value = pick(record, names);
  return typeof value === "string" ? value : undefined;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}
