/**
 * How one request calls one subscription account of the kinds whose call is built from the credential
 * alone: Codex (the ChatGPT backend's Responses endpoint) and Claude (Messages with the OAuth beta), and
 * the types every subscription call shares. Copilot's call needs its session exchange and model list, so
 * `Subscriptions` builds it.
 */
import type { ProviderConfig } from "../../config/mod.ts";
import { chatGptAccount, type CredentialBlob } from "../../credentials/mod.ts";
import type { WireFormat } from "../../model/mod.ts";
import { normalizeCodexBody } from "./codex_body.ts";

/** What a subscription call needs to know about the request. */
export interface CallShape {
  readonly model: string;
  readonly hasImages: boolean;
  /** The turn continues a tool loop (Copilot bills it as the agent's, not a new premium request). */
  readonly agentTurn: boolean;
  readonly clientHeaders: Headers;
  /**
   * A stable identity of the conversation (its prompt-cache affinity key), or null for a lone first turn:
   * kinds whose backend caches per session derive their session id from it.
   */
  readonly conversation: string | null;
}

/** How to call one subscription account for one request. */
export interface SubscriptionCall {
  readonly format: WireFormat;
  readonly url: string;
  /** Authentication and the kind's required headers. */
  readonly headers: Record<string, string>;
  /** `anthropic-beta` flags the kind requires, merged with the client's. */
  readonly betas: readonly string[];
  /** The upstream only streams: a non-stream client gets the stream buffered into one answer. */
  readonly alwaysStream: boolean;
  /** The body as this upstream takes it, and the fields dropped on the way. */
  readonly rewriteBody?: (
    body: Record<string, unknown>,
  ) => { body: Record<string, unknown>; dropped: string[] };
  /** The upstream takes only inline images (it cannot fetch URLs). */
  readonly inlineImagesOnly: boolean;
}

/** Client headers the Codex backend reads, passed through when the client sent them. */
const CODEX_PASSTHROUGH = [
  "version",
  "x-codex-turn-metadata",
  "x-codex-window-id",
  "x-client-request-id",
  "x-codex-beta-features",
  "thread-id",
  "session-id",
  "session_id",
];

export function codexCall(
  provider: ProviderConfig,
  blob: CredentialBlob,
  shape: CallShape,
): SubscriptionCall {
  const base = provider.baseUrl.replace(/\/+$/, "").replace(/\/responses$/, "");
  const accountId = codexAccountId(blob);
  const headers: Record<string, string> = {
    authorization: `Bearer ${blob.accessToken}`,
    originator: "codex_cli_rs",
    ...(accountId ? { "chatgpt-account-id": accountId } : {}),
  };
  for (const name of CODEX_PASSTHROUGH) {
    const value = shape.clientHeaders.get(name);
    if (value !== null) headers[name] = value;
  }
  // Codex's backend keeps its prompt cache per session: a client that sends none (any client whose format
  // is translated) gets one derived from its conversation, so every turn of it lands on the same cache.
  if (
    headers.session_id === undefined && headers["session-id"] === undefined && shape.conversation !== null
  ) {
    headers.session_id = conversationUuid(shape.conversation);
  }
  return {
    format: "responses",
    url: `${base}/responses`,
    headers,
    betas: [],
    alwaysStream: true,
    rewriteBody: normalizeCodexBody,
    inlineImagesOnly: true,
  };
}

/**
 * A UUID-shaped id that is the same for the same conversation key and differs between keys (four FNV-1a
 * lanes with different seeds; not a secret, and the key itself never leaves).
 */
export function conversationUuid(key: string): string {
  const lanes = [0x811c9dc5, 0x050c5d1f, 0x2f3d4c5b, 0x6a09e667];
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    for (let l = 0; l < 4; l++) lanes[l] = Math.imul(lanes[l] ^ c, 16777619 + 2 * l);
  }
  const hex = lanes.map((h) => (h >>> 0).toString(16).padStart(8, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The ChatGPT account id: stored beside the tokens by a sign-in, else read from the tokens' claims. */
export function codexAccountId(blob: CredentialBlob): string | undefined {
  for (const key of ["account_id", "chatgpt_account_id", "accountId", "workspaceId"]) {
    const value = blob.extra[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return chatGptAccount(blob.idToken, blob.accessToken).accountId;
}

export function claudeCall(provider: ProviderConfig, blob: CredentialBlob): SubscriptionCall {
  return {
    format: "messages",
    url: `${provider.baseUrl.replace(/\/+$/, "")}/v1/messages?beta=true`,
    headers: { authorization: `Bearer ${blob.accessToken}` },
    betas: ["oauth-2025-04-20"],
    alwaysStream: false,
    inlineImagesOnly: false,
  };
}
