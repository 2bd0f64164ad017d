import type { ProviderConfig } from "../../config/mod.ts";
import { type CredentialBlob, oauthKind, resolveOAuthKind } from "../../credentials/mod.ts";
import type { LimitWindow } from "../../routing/mod.ts";
import { cloudCodeHeaders, cloudCodeProject, cloudCodeUrl } from "../cloud_code.ts";
import { UNSAVED_PROVIDER_ID } from "./unsaved_credential.ts";
import { TOKEN_TIMEOUT_MS } from "./token_endpoint.ts";

/** How often a Cloud Code account's quota is read again while it is used. */
const QUOTA_READ_EVERY_MS = 10 * 60_000;

/**
 * Where a Cloud Code account's quota is read: `oauth.usage_url` when set, else
 * `{base_url}/v1internal:fetchAvailableModels` for the kind's own host. Another base URL (a proxy, a test
 * server) is not asked on its own: it may not offer the call, and every request would cost it one more.
 */
export function cloudCodeQuotaUrl(provider: ProviderConfig): string | null {
  const override = resolveOAuthKind(provider.apiType, provider.oauth)?.usageUrl;
  if (override) return override;
  const base = provider.baseUrl.replace(/\/+$/, "");
  const own = oauthKind(provider.apiType)?.defaultBaseUrl.replace(/\/+$/, "");
  return base === own ? cloudCodeUrl(base, "fetchAvailableModels") : null;
}

/**
 * Feeds Cloud Code's per-model quota to routing (the Routing screen and quota-aware order), like Copilot's:
 * read off the request path at most every ten minutes per account while it is used, and from every model
 * list Fetch Models reads.
 */
export class CloudCodeQuota {
  readonly #fetcher: typeof fetch;
  readonly #now: () => number;
  readonly #onQuota: ((providerId: string, windows: readonly LimitWindow[]) => void) | undefined;
  /** When each provider's quota was last read or observed (epoch ms). */
  readonly #readAt = new Map<string, number>();

  constructor(
    fetcher: typeof fetch,
    now: () => number,
    onQuota?: (providerId: string, windows: readonly LimitWindow[]) => void,
  ) {
    this.#fetcher = fetcher;
    this.#now = now;
    this.#onQuota = onQuota;
  }

  /** Windows read from a model list of this provider (an unsaved form's credential is no account). */
  observe(provider: ProviderConfig, windows: readonly LimitWindow[]): void {
    if (provider.id === UNSAVED_PROVIDER_ID || !this.#onQuota) return;
    this.#readAt.set(provider.id, this.#now());
    this.#onQuota(provider.id, windows);
  }

  /** Reads the account's quota in the background when the last reading is older than ten minutes. */
  readSoon(provider: ProviderConfig, blob: CredentialBlob): void {
    if (provider.id === UNSAVED_PROVIDER_ID || !this.#onQuota) return;
    const now = this.#now();
    if (now - (this.#readAt.get(provider.id) ?? -Infinity) < QUOTA_READ_EVERY_MS) return;
    const url = cloudCodeQuotaUrl(provider);
    if (url === null) return;
    this.#readAt.set(provider.id, now);
    const project = cloudCodeProject(blob.extra);
    const client = provider.apiType === "cli_oauth_alt" ? "antigravity" : "gemini-cli";
    (async () => {
      const response = await this.#fetcher(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...cloudCodeHeaders(client, blob.accessToken) },
        body: JSON.stringify(project ? { project } : {}),
        redirect: "error",
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      });
      const text = await response.text();
      if (response.ok) this.#onQuota!(provider.id, readCloudCodeModels(JSON.parse(text)).windows);
    })().catch(() => {/* quota is advisory: routing works without it */});
  }
}

/** What a Cloud Code `v1internal:fetchAvailableModels` answer says: the callable models and their quota. */
export interface CloudCodeModelList {
  /** Model ids, sorted; internal ones left out. */
  readonly ids: string[];
  /** One limit window per model whose quota pool is not full. */
  readonly windows: LimitWindow[];
}

/**
 * Reads `fetchAvailableModels`: `models` is an object keyed by model id (older answers: a list of
 * `{id|name}`), each with `quotaInfo {remainingFraction 0..1, resetTime}`. A pool that is full
 * (`remainingFraction >= 1`) has no active window. The answer is proto3 JSON, which leaves zero values
 * out: a `quotaInfo` with a reset time but no fraction is a pool with nothing left.
 */
export function readCloudCodeModels(body: unknown): CloudCodeModelList {
  const models = (body as { models?: unknown } | null)?.models;
  const entries: [string, Record<string, unknown>][] = Array.isArray(models)
    ? models.map((m) => {
      const item = (m ?? {}) as Record<string, unknown>;
      const raw = typeof item.id === "string" ? item.id : typeof item.name === "string" ? item.name : "";
      return [raw.replace(/^models\//, ""), item];
    })
    : Object.entries(models && typeof models === "object" ? models : {}).map((
      [id, m],
    ) => [id, (m ?? {}) as Record<string, unknown>]);
  const ids = new Set<string>();
  const windows: LimitWindow[] = [];
  for (const [id, model] of entries) {
    if (id === "" || model.isInternal === true || ids.has(id)) continue;
    ids.add(id);
    const window = quotaWindow(id, model.quotaInfo);
    if (window) windows.push(window);
  }
  return { ids: [...ids].sort(), windows };
}

function quotaWindow(model: string, info: unknown): LimitWindow | null {
  if (info === null || typeof info !== "object") return null;
  const record = info as Record<string, unknown>;
  const reset = typeof record.resetTime === "string" ? Date.parse(record.resetTime) : NaN;
  const fraction = typeof record.remainingFraction === "number" && Number.isFinite(record.remainingFraction)
    ? record.remainingFraction
    : Number.isNaN(reset)
    ? null
    : 0;
  if (fraction === null || fraction >= 1) return null;
  const remaining = Math.max(0, fraction);
  return {
    id: `cloudcode_${model}`,
    unit: "percent",
    limit: null,
    remaining: null,
    usedFraction: 1 - remaining,
    resetAtMs: Number.isNaN(reset) ? null : reset,
    windowMs: null,
    rejected: remaining <= 0,
  };
}
