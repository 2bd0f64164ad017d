/**
 * Runtime settings: stored as text in the database `settings` table, validated here (pure). Values out
 * of a clamped range are clamped; anything else invalid is rejected with a message naming the rule.
 */

/** Combo strategies of the spec. */
export type ComboStrategy = "fallback" | "round_robin" | "fusion";
/** How accounts sharing a prefix are ordered. */
export type AccountStrategy = "fill_first" | "round_robin" | "sticky_round_robin" | "quota_aware";

/** Every runtime setting, typed. */
export interface RuntimeSettings {
  readonly server_require_api_key: boolean;
  readonly server_cooldowns_enabled: boolean;
  readonly server_request_logging: boolean;
  readonly server_request_log_retention: number;
  readonly server_audit_retention_days: number;
  readonly server_response_store_ttl_days: number;
  readonly server_response_store_max_mb: number;
  readonly server_account_strategy: AccountStrategy;
  readonly server_account_sticky_limit: number;
  readonly server_sticky_client_routing: boolean;
  readonly server_cache_affinity: boolean;
  readonly reporting_timezone: string;
  readonly rate_limit_default_rpm: number;
  readonly rate_limit_default_tpm: number;
  readonly rate_limit_default_max_parallel: number;
  readonly combo_strategy: ComboStrategy;
  readonly combo_sticky_limit: number;
  readonly combo_fusion_judge: string;
  readonly combo_fusion_min_panel: number;
  readonly combo_fusion_straggler_grace_s: number;
  readonly combo_fusion_hard_timeout_s: number;
  readonly saver_rtk_enabled: boolean;
  readonly saver_caveman_enabled: boolean;
  readonly saver_caveman_level: "lite" | "full" | "ultra";
  readonly saver_ponytail_enabled: boolean;
  readonly saver_ponytail_level: "lite" | "full" | "ultra";
  readonly saver_headroom_enabled: boolean;
  readonly saver_headroom_url: string;
}

/** A setting's name. */
export type SettingKey = keyof RuntimeSettings;

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

interface Definition<T> {
  readonly description: string;
  readonly fallback: T;
  parse(text: string): Parsed<T>;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(error: string): Parsed<T> => ({ ok: false, error });

function bool(description: string, fallback: boolean): Definition<boolean> {
  return {
    description,
    fallback,
    parse(text) {
      const t = text.trim().toLowerCase();
      if (["true", "1", "on", "yes"].includes(t)) return ok(true);
      if (["false", "0", "off", "no"].includes(t)) return ok(false);
      return fail("must be true or false");
    },
  };
}

function oneOf<T extends string>(description: string, fallback: T, values: readonly T[]): Definition<T> {
  return {
    description,
    fallback,
    parse(text) {
      const t = text.trim() as T;
      return values.includes(t) ? ok(t) : fail(`must be one of ${values.join(", ")}`);
    },
  };
}

function number(
  description: string,
  fallback: number,
  range: { min: number; max: number; integer: boolean; clamp: boolean; exclusiveMin?: boolean },
): Definition<number> {
  return {
    description,
    fallback,
    parse(text) {
      const t = text.trim();
      const n = Number(t);
      if (t === "" || !Number.isFinite(n)) return fail(`must be a number`);
      if (range.integer && !Number.isInteger(n)) return fail("must be a whole number");
      const tooLow = range.exclusiveMin ? n <= range.min : n < range.min;
      if (range.clamp) return ok(Math.min(Math.max(n, range.min), range.max));
      if (tooLow || n > range.max) {
        return fail(
          `must be ${range.exclusiveMin ? "greater than" : "at least"} ${range.min} and at most ${range.max}`,
        );
      }
      return ok(n);
    },
  };
}

function text(
  description: string,
  fallback: string,
  check: (t: string) => string | null,
): Definition<string> {
  return {
    description,
    fallback,
    parse(raw) {
      const t = raw.trim();
      const error = check(t);
      return error ? fail(error) : ok(t);
    },
  };
}

const LEVELS = ["lite", "full", "ultra"] as const;

/** The definitions, in display order. `server_require_api_key`'s fallback comes from YAML at runtime. */
export const SETTING_DEFINITIONS: { readonly [K in SettingKey]: Definition<RuntimeSettings[K]> } = {
  server_require_api_key: bool("API requests need a key (the dashboard always does)", false),
  server_cooldowns_enabled: bool("cool down failing accounts; false retries them immediately", true),
  server_request_logging: bool("capture request and response bodies in request logs", false),
  server_request_log_retention: number("request log rows kept (oldest pruned)", 500, {
    min: 50,
    max: 5000,
    integer: true,
    clamp: true,
  }),
  server_audit_retention_days: number("days audit rows are kept (older ones pruned)", 365, {
    min: 1,
    max: 3650,
    integer: true,
    clamp: true,
  }),
  server_response_store_ttl_days: number("days a stored Responses API response is kept", 30, {
    min: 1,
    max: 3650,
    integer: true,
    clamp: true,
  }),
  server_response_store_max_mb: number("MB of stored Responses API responses per key (oldest dropped)", 100, {
    min: 1,
    max: 100000,
    integer: true,
    clamp: true,
  }),
  server_account_strategy: oneOf("order of accounts sharing a prefix", "fill_first", [
    "fill_first",
    "round_robin",
    "sticky_round_robin",
    "quota_aware",
  ]),
  server_account_sticky_limit: number("requests kept on one account in sticky_round_robin", 3, {
    min: 1,
    max: 1000,
    integer: true,
    clamp: false,
  }),
  server_sticky_client_routing: bool("keep each client key on the account it last used", false),
  server_cache_affinity: bool(
    "keep a conversation with a prompt-cache key on the account that cached it",
    true,
  ),
  reporting_timezone: text("IANA zone for budgets and daily reports; empty = server local zone", "", (t) => {
    if (t === "") return null;
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: t });
      return null;
    } catch {
      return `unknown time zone "${t}" (use an IANA name such as Europe/Berlin)`;
    }
  }),
  rate_limit_default_rpm: number("requests per minute for keys without their own limit; 0 = none", 0, {
    min: 0,
    max: 1_000_000,
    integer: true,
    clamp: false,
  }),
  rate_limit_default_tpm: number("tokens per minute for keys without their own limit; 0 = none", 0, {
    min: 0,
    max: 1_000_000_000,
    integer: true,
    clamp: false,
  }),
  rate_limit_default_max_parallel: number("requests at once for keys without their own limit; 0 = none", 0, {
    min: 0,
    max: 100_000,
    integer: true,
    clamp: false,
  }),
  combo_strategy: oneOf("how combos pick members", "fallback", ["fallback", "round_robin", "fusion"]),
  combo_sticky_limit: number("requests kept on one combo member in round_robin", 1, {
    min: 1,
    max: 1000,
    integer: true,
    clamp: false,
  }),
  combo_fusion_judge: text(
    "fusion judge <prefix>/<model>; empty = first combo member",
    "",
    (t) => t === "" || /^[^/\s]+\/\S+$/.test(t) ? null : "must be empty or <prefix>/<model>",
  ),
  combo_fusion_min_panel: number("fusion answers needed before the grace period", 2, {
    min: 1,
    max: 100,
    integer: true,
    clamp: false,
  }),
  combo_fusion_straggler_grace_s: number("seconds to wait for slower panel members", 8, {
    min: 0,
    max: 3600,
    integer: false,
    clamp: false,
  }),
  combo_fusion_hard_timeout_s: number("seconds bounding the whole fusion panel", 90, {
    min: 0,
    max: 3600,
    integer: false,
    clamp: false,
    exclusiveMin: true,
  }),
  saver_rtk_enabled: bool("RTK: compress long tool results", true),
  saver_caveman_enabled: bool("Caveman: ask for terse answers", false),
  saver_caveman_level: oneOf("Caveman level", "full", LEVELS),
  saver_ponytail_enabled: bool("Ponytail: ask for minimal code", false),
  saver_ponytail_level: oneOf("Ponytail level", "full", LEVELS),
  saver_headroom_enabled: bool("Headroom: external compression service", false),
  saver_headroom_url: text("Headroom service URL", "http://127.0.0.1:8787", (t) => {
    try {
      const url = new URL(t);
      return url.protocol === "http:" || url.protocol === "https:" ? null : "must be an http(s) URL";
    } catch {
      return "must be an http(s) URL";
    }
  }),
};

/** Every setting key in display order. */
export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

/** True when `key` names a runtime setting. */
export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFINITIONS, key);
}

/** Validates one value; returns its canonical text form or an error message naming the setting. */
export function validateSetting(
  key: string,
  value: string,
): { ok: true; text: string } | { ok: false; error: string } {
  if (!isSettingKey(key)) {
    return { ok: false, error: `unknown setting "${key}" (known: ${SETTING_KEYS.join(", ")})` };
  }
  const parsed = SETTING_DEFINITIONS[key].parse(value) as Parsed<unknown>;
  if (!parsed.ok) return { ok: false, error: `${key}: ${parsed.error} (got "${value}")` };
  return { ok: true, text: String(parsed.value) };
}

/**
 * Resolves stored rows into typed settings. Stored values that no longer validate fall back to the
 * default instead of failing startup; `requireApiKeyDefault` is YAML `server.require_api_key`.
 */
export function resolveSettings(
  stored: ReadonlyMap<string, string>,
  requireApiKeyDefault: boolean,
): RuntimeSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const definition = SETTING_DEFINITIONS[key] as Definition<unknown>;
    const fallback = key === "server_require_api_key" ? requireApiKeyDefault : definition.fallback;
    const raw = stored.get(key);
    const parsed = raw === undefined ? undefined : definition.parse(raw);
    out[key] = parsed && parsed.ok ? parsed.value : fallback;
  }
  return out as unknown as RuntimeSettings;
}

/** A setting's default as help texts show it (`server_require_api_key`'s comes from the YAML). */
export function settingDefaultText(key: SettingKey): string {
  if (key === "server_require_api_key") return "server.require_api_key in the YAML, else false";
  const fallback = String(SETTING_DEFINITIONS[key].fallback);
  return fallback === "" ? "empty" : fallback;
}

/** The description of a setting, for help texts and the dashboard. */
export function describeSetting(key: SettingKey): string {
  return SETTING_DEFINITIONS[key].description;
}
