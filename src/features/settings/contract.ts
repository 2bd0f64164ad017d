/** Settings contract: the settings and savers sections, and the one settings route. */
import type { RuntimeSettings, SettingKey } from "../../config/runtime_settings.ts";
import type { Route } from "../../dashboard/contract/api.ts";

/** One token saver's counters. */
export interface SaverStat {
  readonly saver: string;
  readonly requests: number;
  readonly bytes_before: number;
  readonly bytes_after: number;
  readonly saved_pct: number;
  readonly errors: number;
}

/** Token saver switches and their counters. */
export interface SaversSection {
  readonly settings: {
    readonly rtk_enabled: boolean;
    readonly caveman_enabled: boolean;
    readonly caveman_level: string;
    readonly ponytail_enabled: boolean;
    readonly ponytail_level: string;
    readonly headroom_enabled: boolean;
    readonly headroom_url: string;
  };
  readonly stats: readonly SaverStat[];
}

/** A runtime setting's value. */
export type SettingValue = string | number | boolean;

/** One runtime setting with its value, default and type. */
export interface SettingView {
  readonly key: string;
  readonly value: SettingValue;
  readonly default: SettingValue;
  readonly stored: boolean;
  readonly description: string;
  readonly type: "enum" | "boolean" | "integer" | "number" | "string";
  readonly options?: readonly string[];
}

/** Every runtime setting plus server information. */
export interface SettingsSection {
  readonly settings: readonly SettingView[];
  readonly server: {
    readonly version: string;
    readonly host: string;
    readonly port: number;
    readonly config_path: string;
    readonly db_path: string;
    readonly started_at: number;
    readonly uptime_s: number;
  };
}

/** Body of `POST /settings`: a partial map; `null` puts a setting back to its default. */
export type SettingsInput = { readonly [K in SettingKey]?: RuntimeSettings[K] | null };

/** Answer of `POST /settings`: the keys that changed and every setting in force. */
export interface SettingsSaved {
  readonly ok: true;
  readonly changed: readonly string[];
  readonly settings: RuntimeSettings;
}

/** The settings route. */
export interface SettingsApi {
  readonly "POST /settings": Route<SettingsInput, SettingsSaved>;
}
