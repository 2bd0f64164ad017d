import type {
  ApiType,
  AzureSettings,
  CapabilityOverride,
  OAuthOverrides,
  ProviderConfig,
  ProviderQuota,
} from "../config/mod.ts";
import { isCredentialJson, parseCredential } from "../credentials/mod.ts";
import { type DeclaredKinds, MODEL_KINDS, type ModelKind } from "../model/mod.ts";
import type { Database } from "./database.ts";
import { stringList } from "./json_column.ts";
import type { SecretBox } from "./secret_box.ts";

interface Row {
  id: string;
  prefix: string;
  api_type: string;
  base_url: string;
  api_key: string;
  models: string;
  enabled: number;
  position: number;
  capabilities: string;
  oauth: string;
  quota?: string;
  azure?: string;
  kinds?: string;
}

/** The providers table. Upstream credentials are sealed by the SecretBox before they are written. */
export class ProvidersRepo {
  readonly #db: Database;
  readonly #box: SecretBox;

  constructor(db: Database, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  /** Every provider in routing order (position, then insertion). */
  list(): ProviderConfig[] {
    const rows = this.#db.prepare("SELECT * FROM providers ORDER BY position, rowid")
      .all() as unknown as Row[];
    return rows.map((r) => this.#toConfig(r));
  }

  /** One provider by id. */
  get(id: string): ProviderConfig | undefined {
    const row = this.#db.prepare("SELECT * FROM providers WHERE id = ?").get(id) as unknown as
      | Row
      | undefined;
    return row ? this.#toConfig(row) : undefined;
  }

  /**
   * Inserts or replaces a provider, keeping its position when it exists. A subscription credential whose
   * refresh token the gateway already spent (an old export, the YAML's first blob after a reset, an
   * edit racing a refresh) is older than the stored one: the stored, rotated credential stays.
   */
  upsert(provider: ProviderConfig, now: number): void {
    const refreshToken = refreshTokenOf(provider.apiKey);
    const spentFingerprint = refreshToken === null ? null : this.#box.fingerprint(refreshToken);
    const position = this.#db.prepare("SELECT coalesce(max(position), -1) + 1 AS p FROM providers").get() as {
      p: number;
    };
    this.#db.prepare(
      `INSERT INTO providers (id, prefix, api_type, base_url, api_key, models, enabled, position, created_at,
         updated_at, capabilities, oauth, quota, azure, kinds)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET prefix = excluded.prefix, api_type = excluded.api_type,
         base_url = excluded.base_url, models = excluded.models,
         enabled = excluded.enabled, updated_at = excluded.updated_at, capabilities = excluded.capabilities,
         oauth = excluded.oauth, quota = excluded.quota, azure = excluded.azure, kinds = excluded.kinds,
         api_key = CASE WHEN CAST(?16 AS TEXT) IS NOT NULL AND EXISTS (
             SELECT 1 FROM credential_state s, json_each(s.spent) j
             WHERE s.credential_id = 'provider:' || excluded.id AND j.value = CAST(?16 AS TEXT))
           THEN providers.api_key ELSE excluded.api_key END`,
    ).run(
      provider.id,
      provider.prefix,
      provider.apiType,
      provider.baseUrl,
      this.#box.seal(provider.apiKey),
      JSON.stringify(provider.models),
      provider.enabled ? 1 : 0,
      Number(position.p),
      now,
      now,
      JSON.stringify(provider.capabilities ?? {}),
      JSON.stringify(provider.oauth ?? {}),
      JSON.stringify(provider.quota ?? {}),
      JSON.stringify(provider.azure ?? {}),
      JSON.stringify(provider.kinds ?? {}),
      spentFingerprint,
    );
  }

  /** Every provider's stored api_key, still sealed, by id (a reset restores rotated ones from it). */
  sealedKeys(): Map<string, string> {
    const rows = this.#db.prepare("SELECT id, api_key FROM providers").all() as unknown as Row[];
    return new Map(rows.map((r) => [r.id, r.api_key]));
  }

  /**
   * After providers were deleted and re-inserted (a config reset): a provider whose new credential carries
   * a refresh token the gateway already spent gets its previous, rotated credential back.
   */
  restoreRotated(previous: ReadonlyMap<string, string>): void {
    for (const [id, sealed] of previous) {
      const current = this.get(id);
      const refreshToken = current ? refreshTokenOf(current.apiKey) : null;
      if (refreshToken === null) continue;
      const spent = this.#db.prepare(
        `SELECT 1 FROM credential_state s, json_each(s.spent) j WHERE s.credential_id = ? AND j.value = ?`,
      ).get(`provider:${id}`, this.#box.fingerprint(refreshToken));
      if (spent) this.#db.prepare("UPDATE providers SET api_key = ? WHERE id = ?").run(sealed, id);
    }
  }

  /** Deletes a provider; false when it did not exist. */
  delete(id: string): boolean {
    return Number(this.#db.prepare("DELETE FROM providers WHERE id = ?").run(id).changes) > 0;
  }

  /** Number of rows. */
  count(): number {
    return Number((this.#db.prepare("SELECT count(*) AS n FROM providers").get() as { n: number }).n);
  }

  #toConfig(row: Row): ProviderConfig {
    return {
      id: row.id,
      prefix: row.prefix,
      apiType: row.api_type as ApiType,
      baseUrl: row.base_url,
      apiKey: this.#box.open(row.api_key),
      models: stringList(row.models),
      enabled: row.enabled === 1,
      capabilities: capabilitiesColumn(row.capabilities),
      ...(oauthColumn(row.oauth) ?? {}),
      ...quotaColumn(row.quota),
      ...azureColumn(row.azure),
      ...kindsColumn(row.kinds),
    };
  }
}

/** The quota column as a config field; `{}` (no limits configured) leaves the field out. */
function quotaColumn(text: string | undefined): { quota?: ProviderQuota } {
  try {
    const value = JSON.parse(text ?? "{}");
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    const windows = Array.isArray(value.windows) ? value.windows : [];
    if (value.rpm === undefined && value.rpd === undefined && windows.length === 0) return {};
    return { quota: { ...value, windows } };
  } catch {
    return {};
  }
}

/** The azure column as a config field; `{}` (every kind but Azure's) leaves the field out. */
function azureColumn(text: string | undefined): { azure?: AzureSettings } {
  try {
    const value = JSON.parse(text ?? "{}");
    if (!value || typeof value !== "object" || typeof value.apiVersion !== "string") return {};
    const deployments = value.deployments && typeof value.deployments === "object" ? value.deployments : {};
    return { azure: { apiVersion: value.apiVersion, deployments } };
  } catch {
    return {};
  }
}

/** The kinds column as a config field; `{}` (nothing declared) or a damaged value leaves the field out. */
function kindsColumn(text: string | undefined): { kinds?: DeclaredKinds } {
  try {
    const value = JSON.parse(text ?? "{}");
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    const kinds = Object.fromEntries(
      Object.entries(value).filter(([, k]) => MODEL_KINDS.includes(k as ModelKind)),
    ) as Record<string, ModelKind>;
    return Object.keys(kinds).length === 0 ? {} : { kinds };
  } catch {
    return {};
  }
}

function capabilitiesColumn(text: string | undefined): Record<string, CapabilityOverride> {
  try {
    const value = JSON.parse(text ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function oauthColumn(text: string | undefined): { oauth: OAuthOverrides } | undefined {
  try {
    const value = JSON.parse(text ?? "{}");
    const ok = value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0;
    return ok ? { oauth: value } : undefined;
  } catch {
    return undefined;
  }
}

/** The refresh token a stored api_key carries, or null (bare tokens, API keys, broken blobs). */
function refreshTokenOf(apiKey: string): string | null {
  if (!isCredentialJson(apiKey)) return null;
  try {
    return parseCredential(apiKey, 0).refreshToken ?? null;
  } catch {
    return null;
  }
}
