import { stringify } from "yaml";
import { type Config, loadConfig } from "../config/mod.ts";
import type { RuntimeSettings } from "../config/runtime_settings.ts";
import type { ControlPlane } from "../gateway/control_plane.ts";
import { SAVER_SETTING_KEYS, saverSettings, type SeedReport } from "../storage/mod.ts";

/**
 * The database state as a config file: server, providers (all, with plaintext keys and the enabled
 * flag), combos, token_savers and pricing overrides. It loads with parseConfig and seeds a fresh home.
 */
export function exportConfigYaml(control: ControlPlane): string {
  const s: RuntimeSettings = control.settings;
  const doc: Record<string, unknown> = {
    server: {
      host: control.config.server.host,
      port: control.config.server.port,
      require_api_key: s.server_require_api_key,
    },
    providers: control.providers.map((p) => ({
      id: p.id,
      prefix: p.prefix,
      api_type: p.apiType,
      base_url: p.baseUrl,
      api_key: p.apiKey,
      models: [...p.models],
      enabled: p.enabled,
      ...(p.capabilities && Object.keys(p.capabilities).length > 0
        ? { capabilities: exportCapabilities(p.capabilities) }
        : {}),
    })),
    combos: control.combos.map((c) => ({ name: c.name, models: [...c.models] })),
    token_savers: {
      rtk: { enabled: s.saver_rtk_enabled },
      caveman: { enabled: s.saver_caveman_enabled, level: s.saver_caveman_level },
      ponytail: { enabled: s.saver_ponytail_enabled, level: s.saver_ponytail_level },
      headroom: { enabled: s.saver_headroom_enabled, url: s.saver_headroom_url },
    },
    pricing: Object.fromEntries(
      Object.entries(control.pricing).map(([model, p]) => [model, {
        input_per_mtok: p.inputPerMtok,
        output_per_mtok: p.outputPerMtok,
        cache_creation_per_mtok: p.cacheCreationPerMtok,
        cache_read_per_mtok: p.cacheReadPerMtok,
      }]),
    ),
  };
  return `# Gateway state exported ${
    new Date().toISOString()
  }\n# Contains plaintext upstream credentials.\n` +
    stringify(doc, { lineWidth: 0 });
}

/**
 * Reset to defaults: re-reads the YAML file (a broken file throws ConfigError before anything changes),
 * then in one transaction deletes providers, combos, saver settings and pricing overrides and seeds them
 * from the file. Keys, budgets, usage, logs and other settings stay.
 */
export function resetFromYaml(
  control: ControlPlane,
  env: (name: string) => string | undefined,
  now: number,
): SeedReport {
  const config: Config = loadConfig(control.config.paths, env);
  const store = control.store;
  return store.transaction(() => {
    store.db.exec("DELETE FROM providers");
    store.db.exec("DELETE FROM combos");
    store.db.exec("DELETE FROM pricing_overrides");
    store.settings.delete(SAVER_SETTING_KEYS);
    for (const p of config.providers) store.providers.upsert(p, now);
    for (const c of config.combos) store.combos.create(c, now);
    for (const [key, value] of Object.entries(saverSettings(config))) store.settings.set(key, value);
    for (const [model, price] of Object.entries(config.pricing)) store.pricing.upsert(model, price, now);
    return {
      providers: config.providers.length,
      combos: config.combos.length,
      savers: true,
      pricing: Object.keys(config.pricing).length,
    };
  });
}

function exportCapabilities(
  capabilities: Readonly<Record<string, import("../config/mod.ts").CapabilityOverride>>,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [model, c] of Object.entries(capabilities)) {
    out[model] = Object.fromEntries(
      Object.entries({
        vision: c.vision,
        reasoning: c.reasoning,
        thinking_format: c.thinkingFormat,
        context_window: c.contextWindow,
        max_output_tokens: c.maxOutputTokens,
        max_thinking_budget: c.maxThinkingBudget,
      }).filter(([, v]) => v !== undefined),
    );
  }
  return out;
}
