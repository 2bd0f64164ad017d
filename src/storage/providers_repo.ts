import type { ApiType, CapabilityOverride, ProviderConfig, ProviderQuota } from "../config/mod.ts";
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
  quota?: string;
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

  /** Inserts or replaces a provider, keeping its position when it exists. */
  upsert(provider: ProviderConfig, now: number): void {
    const position = this.#db.prepare("SELECT coalesce(max(position), -1) + 1 AS p FROM providers").get() as {
      p: number;
    };
    this.#db.prepare(
      `INSERT INTO providers (id, prefix, api_type, base_url, api_key, models, enabled, position, created_at,
         updated_at, capabilities, quota)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET prefix = excluded.prefix, api_type = excluded.api_type,
         base_url = excluded.base_url, api_key = excluded.api_key, models = excluded.models,
         enabled = excluded.enabled, updated_at = excluded.updated_at, capabilities = excluded.capabilities,
         quota = excluded.quota`,
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
      JSON.stringify(provider.quota ?? {}),
    );
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
      ...quotaColumn(row.quota),
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

function capabilitiesColumn(text: string | undefined): Record<string, CapabilityOverride> {
  try {
    const value = JSON.parse(text ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
