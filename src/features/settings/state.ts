import { databaseLabel } from "../../config/mod.ts";
import {
  describeSetting,
  resolveSettings,
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  type SettingKey,
} from "../../config/runtime_settings.ts";
import { round, type SectionInput } from "../../dashboard/state/common.ts";
import type { SaversSection, SettingsSection, SettingView } from "./contract.ts";

/** Token saver switches and their counters. */
export function saversSection({ gateway }: SectionInput): SaversSection {
  const s = gateway.state.settings;
  return {
    settings: {
      rtk_enabled: s.saver_rtk_enabled,
      caveman_enabled: s.saver_caveman_enabled,
      caveman_level: s.saver_caveman_level,
      ponytail_enabled: s.saver_ponytail_enabled,
      ponytail_level: s.saver_ponytail_level,
      headroom_enabled: s.saver_headroom_enabled,
      headroom_url: s.saver_headroom_url,
    },
    stats: gateway.reads.saverStats.all().map((r) => ({
      saver: r.saver,
      requests: r.requests,
      bytes_before: r.bytesBefore,
      bytes_after: r.bytesAfter,
      saved_pct: r.bytesBefore > 0 ? round(((r.bytesBefore - r.bytesAfter) * 100) / r.bytesBefore, 2) : 0,
      errors: r.errors,
    })),
  };
}

const ENUM_OPTIONS: Partial<Record<SettingKey, readonly string[]>> = {
  server_account_strategy: ["fill_first", "round_robin", "sticky_round_robin", "quota_aware"],
  combo_strategy: ["fallback", "round_robin", "fusion"],
  saver_caveman_level: ["lite", "full", "ultra"],
  saver_ponytail_level: ["lite", "full", "ultra"],
};
const INTEGER_KEYS = new Set<SettingKey>([
  "server_request_log_retention",
  "server_audit_retention_days",
  "server_response_store_ttl_days",
  "server_response_store_max_mb",
  "server_account_sticky_limit",
  "combo_sticky_limit",
  "combo_fusion_min_panel",
]);

function settingType(key: SettingKey, fallback: unknown): SettingView["type"] {
  if (ENUM_OPTIONS[key]) return "enum";
  if (typeof fallback === "boolean") return "boolean";
  if (typeof fallback === "number") return INTEGER_KEYS.has(key) ? "integer" : "number";
  return "string";
}

/** Every runtime setting with its value, default and type, plus server information. */
export function settingsSection(
  { gateway }: SectionInput,
  startedAt: number,
  version: string,
): SettingsSection {
  const stored = gateway.manage.settings.stored();
  const resolved = resolveSettings(stored, gateway.state.config.server.requireApiKey);
  const config = gateway.state.config;
  return {
    settings: SETTING_KEYS.map((key) => {
      const fallback = key === "server_require_api_key"
        ? config.server.requireApiKey
        : (SETTING_DEFINITIONS[key] as { fallback: unknown }).fallback;
      return {
        key,
        value: resolved[key],
        default: fallback as SettingView["default"],
        stored: stored.has(key),
        description: describeSetting(key),
        type: settingType(key, fallback),
        ...(ENUM_OPTIONS[key] ? { options: ENUM_OPTIONS[key] } : {}),
      };
    }),
    server: {
      version,
      host: config.server.host,
      port: config.server.port,
      config_path: config.paths.configPath,
      db_path: databaseLabel(config),
      started_at: startedAt,
      uptime_s: Math.max(0, Math.round((gateway.now() - startedAt) / 1000)),
    },
  };
}
