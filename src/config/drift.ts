import type { ComboConfig, ProviderConfig } from "./config.ts";

/**
 * One way the YAML and the database disagree. The YAML seeds the database on the first start only; after
 * that the database (dashboard, CLI) is what serves, so a YAML edited later is silently not in force.
 */
export interface ConfigDrift {
  readonly kind: "provider" | "combo";
  /** The provider id or combo name. */
  readonly id: string;
  readonly change: "yaml_only" | "database_only" | "differs";
  /** For `differs`: the YAML field names whose values differ (`api_key` is named, never shown). */
  readonly fields: readonly string[];
}

/** What is compared of a provider, by its YAML field name. */
const PROVIDER_FIELDS: readonly [string, (p: ProviderConfig) => unknown][] = [
  ["prefix", (p) => p.prefix],
  ["api_type", (p) => p.apiType],
  ["base_url", (p) => p.baseUrl],
  ["models", (p) => p.models.join("\n")],
  ["enabled", (p) => p.enabled],
  ["azure", (p) => JSON.stringify(p.azure ?? null)],
  [
    "kinds",
    (p) => JSON.stringify(Object.entries(p.kinds ?? {}).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)),
  ],
];

/** Both sides of the comparison: providers and combos. */
export interface ConfigSide {
  readonly providers: readonly ProviderConfig[];
  readonly combos: readonly ComboConfig[];
}

/**
 * Where the YAML and the database differ, providers first, each in YAML order then database order.
 * `comparesKey` says whether a provider's stored key should equal the YAML's: a subscription's credential
 * is rotated by every refresh, so its stored blob differs from the YAML's by design.
 */
export function configDrift(
  yaml: ConfigSide,
  database: ConfigSide,
  comparesKey: (provider: ProviderConfig) => boolean,
): ConfigDrift[] {
  const drift: ConfigDrift[] = [];
  const stored = new Map(database.providers.map((p) => [p.id, p]));
  for (const provider of yaml.providers) {
    const other = stored.get(provider.id);
    if (other === undefined) {
      drift.push({ kind: "provider", id: provider.id, change: "yaml_only", fields: [] });
      continue;
    }
    const fields = PROVIDER_FIELDS.filter(([, read]) => read(provider) !== read(other)).map(([name]) => name);
    if (comparesKey(provider) && provider.apiKey !== other.apiKey) fields.push("api_key");
    if (fields.length > 0) drift.push({ kind: "provider", id: provider.id, change: "differs", fields });
  }
  const inYaml = new Set(yaml.providers.map((p) => p.id));
  for (const provider of database.providers) {
    if (!inYaml.has(provider.id)) {
      drift.push({ kind: "provider", id: provider.id, change: "database_only", fields: [] });
    }
  }
  const storedCombos = new Map(database.combos.map((c) => [c.name, c]));
  for (const combo of yaml.combos) {
    const other = storedCombos.get(combo.name);
    if (other === undefined) drift.push({ kind: "combo", id: combo.name, change: "yaml_only", fields: [] });
    else if (other.models.join("\n") !== combo.models.join("\n")) {
      drift.push({ kind: "combo", id: combo.name, change: "differs", fields: ["models"] });
    }
  }
  const yamlCombos = new Set(yaml.combos.map((c) => c.name));
  for (const combo of database.combos) {
    if (!yamlCombos.has(combo.name)) {
      drift.push({ kind: "combo", id: combo.name, change: "database_only", fields: [] });
    }
  }
  return drift;
}

/** One line for people: what differs, and on which side. */
export function describeDrift(drift: ConfigDrift): string {
  switch (drift.change) {
    case "yaml_only":
      return `${drift.kind} "${drift.id}" is in the YAML but not in the database (not served)`;
    case "database_only":
      return `${drift.kind} "${drift.id}" is in the database but not in the YAML (served)`;
    case "differs":
      return `${drift.kind} "${drift.id}" differs: ${
        drift.fields.join(", ")
      } (the database's values are served)`;
  }
}
