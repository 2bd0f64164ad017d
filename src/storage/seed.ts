import type { Config } from "../config/mod.ts";
import { CombosRepo } from "./combos_repo.ts";
import { type Database, transaction } from "./database.ts";
import { PricingRepo } from "./pricing_repo.ts";
import { ProvidersRepo } from "./providers_repo.ts";
import type { SecretBox } from "./secret_box.ts";
import { SettingsRepo } from "./settings_repo.ts";

/** The saver setting keys seeded from YAML `token_savers`. */
export const SAVER_SETTING_KEYS = [
  "saver_rtk_enabled",
  "saver_caveman_enabled",
  "saver_caveman_level",
  "saver_ponytail_enabled",
  "saver_ponytail_level",
  "saver_headroom_enabled",
  "saver_headroom_url",
] as const;

/** What a seeding run imported, per section. */
export interface SeedReport {
  readonly providers: number;
  readonly combos: number;
  readonly savers: boolean;
  readonly pricing: number;
}

/**
 * Imports YAML providers, combos, token_savers and pricing into the database, each only when its
 * table (or, for savers, its settings) is empty. After seeding the database is authoritative.
 */
export function seedFromConfig(db: Database, config: Config, box: SecretBox, now: number): SeedReport {
  return transaction(db, () => seedEmpty(db, config, box, now));
}

/**
 * Reset to a config: in one transaction, deletes providers, combos, saver settings and pricing overrides
 * and seeds them from the config. Keys, budgets, usage, logs and other settings stay.
 */
export function replaceFromConfig(db: Database, config: Config, box: SecretBox, now: number): SeedReport {
  return transaction(db, () => {
    const providers = new ProvidersRepo(db, box);
    const previous = providers.sealedKeys();
    db.exec("DELETE FROM providers");
    db.exec("DELETE FROM combos");
    db.exec("DELETE FROM pricing_overrides");
    new SettingsRepo(db).delete(SAVER_SETTING_KEYS);
    const report = seedEmpty(db, config, box, now);
    // The YAML may still hold a subscription blob whose refresh token was spent since: keep the rotated one.
    providers.restoreRotated(previous);
    return report;
  });
}

function seedEmpty(db: Database, config: Config, box: SecretBox, now: number): SeedReport {
  const providers = new ProvidersRepo(db, box);
  const combos = new CombosRepo(db);
  const pricing = new PricingRepo(db);
  const settings = new SettingsRepo(db);
  let providerCount = 0, comboCount = 0, priceCount = 0, savers = false;
  if (providers.count() === 0) {
    for (const p of config.providers) providers.upsert(p, now);
    providerCount = config.providers.length;
  }
  if (combos.count() === 0) {
    for (const c of config.combos) combos.create(c, now);
    comboCount = config.combos.length;
  }
  const stored = settings.all();
  if (!SAVER_SETTING_KEYS.some((k) => stored.has(k))) {
    for (const [key, value] of Object.entries(saverSettings(config))) settings.set(key, value);
    savers = true;
  }
  if (pricing.count() === 0) {
    for (const [model, price] of Object.entries(config.pricing)) pricing.upsert(model, price, now);
    priceCount = Object.keys(config.pricing).length;
  }
  return { providers: providerCount, combos: comboCount, savers, pricing: priceCount };
}

/** The saver settings a config seeds, as stored text. */
export function saverSettings(config: Config): Record<(typeof SAVER_SETTING_KEYS)[number], string> {
  const s = config.tokenSavers;
  return {
    saver_rtk_enabled: String(s.rtk.enabled),
    saver_caveman_enabled: String(s.caveman.enabled),
    saver_caveman_level: s.caveman.level,
    saver_ponytail_enabled: String(s.ponytail.enabled),
    saver_ponytail_level: s.ponytail.level,
    saver_headroom_enabled: String(s.headroom.enabled),
    saver_headroom_url: s.headroom.url,
  };
}
