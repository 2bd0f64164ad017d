import { stringify } from "yaml";
import {
  type CapabilityOverride,
  type Config,
  ConfigError,
  loadConfig,
  OAUTH_OVERRIDE_FIELDS,
  type OAuthOverrides,
} from "../../config/mod.ts";
import { resolveSettings } from "../../config/runtime_settings.ts";
import { replaceFromConfig, type SeedReport } from "../../storage/mod.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField } from "../field_error.ts";

/** One environment variable a plain export refers to instead of a credential. */
interface ExportVariable {
  /** The variable's name, `${NAME}` in the file. */
  readonly name: string;
  readonly providerId: string;
  /** Which field it stands for (`api_key`, `oauth.client_secret`). */
  readonly field: string;
}

/** The database state as a config file (Export), and the config file back into the database (Reset). */
export class ConfigFileService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /**
   * Server, providers (all, with the enabled flag), combos, token_savers and pricing overrides as YAML that
   * loads with parseConfig and seeds a fresh home. By default every credential is a `${VARIABLE}` named
   * after its provider, listed in a header comment, so the file can be kept and shared like any config;
   * `includeSecrets` writes the plaintext instead (the caller has warned and asked an administrator).
   */
  exportYaml(options: { readonly includeSecrets?: boolean } = {}): string {
    const { store, config } = this.#deps;
    const variables = new VariableNames();
    const secret = (providerId: string, field: string, value: string): string => {
      if (options.includeSecrets || value === "") return value;
      return `\${${variables.name(providerId, field)}}`;
    };
    const s = resolveSettings(store.settings.all(), config.server.requireApiKey);
    const doc: Record<string, unknown> = {
      server: {
        host: config.server.host,
        port: config.server.port,
        require_api_key: s.server_require_api_key,
        drain_timeout_s: config.server.drainTimeoutMs / 1000,
        trusted_proxies: [...config.server.trustedProxies],
        allow_private_image_urls: config.server.allowPrivateImageUrls,
      },
      limits: exportLimits(config.limits),
      inventory: {
        check_interval_hours: config.inventory.checkIntervalMs / 3_600_000,
        check_concurrency: config.inventory.checkConcurrency,
        error_retry_s: config.inventory.errorRetryMs / 1000,
        check_timeout_s: config.inventory.checkTimeoutMs / 1000,
        usability_probe: config.inventory.usabilityProbe,
        check_provider_keys: config.inventory.checkProviderKeys,
        allow_private_targets: config.inventory.allowPrivateTargets,
        push_rate_limit: config.inventory.pushRateLimit,
        push_rate_window_s: config.inventory.pushRateWindowMs / 1000,
      },
      providers: store.providers.list().map((p) => ({
        id: p.id,
        prefix: p.prefix,
        api_type: p.apiType,
        base_url: p.baseUrl,
        api_key: secret(p.id, "api_key", p.apiKey),
        models: [...p.models],
        enabled: p.enabled,
        ...(p.capabilities && Object.keys(p.capabilities).length > 0
          ? { capabilities: exportCapabilities(p.capabilities) }
          : {}),
        ...(p.quota ? { quota: { ...p.quota, windows: p.quota.windows.map((w) => ({ ...w })) } } : {}),
        ...(p.oauth && Object.keys(p.oauth).length > 0
          ? { oauth: exportOAuth(p.oauth, (value) => secret(p.id, "oauth.client_secret", value)) }
          : {}),
        ...(p.azure
          ? { azure: { api_version: p.azure.apiVersion, deployments: { ...p.azure.deployments } } }
          : {}),
        ...(p.kinds && Object.keys(p.kinds).length > 0 ? { kinds: { ...p.kinds } } : {}),
      })),
      combos: store.combos.list().map((c) => ({ name: c.name, models: [...c.models] })),
      token_savers: {
        rtk: { enabled: s.saver_rtk_enabled },
        caveman: { enabled: s.saver_caveman_enabled, level: s.saver_caveman_level },
        ponytail: { enabled: s.saver_ponytail_enabled, level: s.saver_ponytail_level },
        headroom: { enabled: s.saver_headroom_enabled, url: s.saver_headroom_url },
      },
      pricing: Object.fromEntries(
        Object.entries(store.pricing.all()).map(([model, p]) => [model, {
          input_per_mtok: p.inputPerMtok,
          output_per_mtok: p.outputPerMtok,
          cache_creation_per_mtok: p.cacheCreationPerMtok,
          cache_read_per_mtok: p.cacheReadPerMtok,
          // Per-unit prices (images, audio, speech, rerank) round-trip like the token ones.
          ...(p.perImage === undefined ? {} : { per_image: { ...p.perImage } }),
          ...(p.perSecond === undefined ? {} : { per_second: p.perSecond }),
          ...(p.perMchar === undefined ? {} : { per_mchar: p.perMchar }),
          ...(p.perSearchUnit === undefined ? {} : { per_search_unit: p.perSearchUnit }),
        }]),
      ),
    };
    const body = stringify(doc, { lineWidth: 0 });
    const stamp = `# Gateway state exported ${new Date(this.#deps.now()).toISOString()}\n`;
    if (options.includeSecrets) {
      return stamp + `# Contains plaintext upstream credentials.\n` + body;
    }
    const listed = variables.all();
    const header = listed.length === 0 ? "# No credentials: nothing to set before loading this file.\n" : [
      "# Credentials are not in this file. Set these environment variables before loading it:",
      ...listed.map((v) => `#   ${v.name}  (provider ${v.providerId}, ${v.field})`),
      "",
    ].join("\n");
    return stamp + header + body;
  }

  /**
   * Reset to defaults: re-reads the YAML file (a broken file is a 422 before anything changes), then in
   * one transaction replaces providers, combos, saver settings and pricing overrides with the file's.
   * Keys, budgets, usage, logs and other settings stay.
   */
  reset(): SeedReport {
    const { store, config: loaded } = this.#deps;
    let config;
    try {
      config = loadConfig(loaded.paths, this.#deps.env);
    } catch (error) {
      if (error instanceof ConfigError) throw invalidField("config", error.message, 422);
      throw error;
    }
    const seeded = replaceFromConfig(store.db, config, store.box, this.#deps.now());
    this.#deps.reload();
    return seeded;
  }
}

/** The loaded `limits:` section back in the file's units (bytes, characters, seconds). */
function exportLimits(limits: Config["limits"]): Record<string, number> {
  return {
    max_answer_bytes: limits.maxAnswerBytes,
    max_stream_event_chars: limits.maxStreamEventChars,
    max_header_bytes: limits.maxHeaderBytes,
    response_timeout_s: limits.responseTimeoutMs / 1000,
    idle_timeout_s: limits.idleTimeoutMs / 1000,
    first_content_timeout_s: limits.firstContentTimeoutMs / 1000,
    max_stream_duration_s: limits.maxStreamDurationMs / 1000,
    max_connections: limits.maxConnections,
    pool_wait_timeout_s: limits.poolWaitTimeoutMs / 1000,
  };
}

function exportCapabilities(
  capabilities: Readonly<Record<string, CapabilityOverride>>,
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

/** OAuth endpoint overrides back in the file's snake_case names; `secret` writes the client secret. */
function exportOAuth(oauth: OAuthOverrides, secret: (value: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [yamlName, field] of Object.entries(OAUTH_OVERRIDE_FIELDS)) {
    const value = oauth[field];
    if (value !== undefined) out[yamlName] = field === "clientSecret" ? secret(value) : value;
  }
  return out;
}

/**
 * Variable names after their provider: `ACCT_A_API_KEY` for provider `acct-a`. Ids that differ only in
 * punctuation would share a name, so a later one gets a number.
 */
class VariableNames {
  readonly #taken = new Set<string>();
  readonly #list: ExportVariable[] = [];

  /** The variable for one provider's field (a new one each call). */
  name(providerId: string, field: string): string {
    const stem = providerId.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "") || "PROVIDER";
    const suffix = field === "api_key" ? "API_KEY" : "CLIENT_SECRET";
    // A name must not start with a digit to be a ${VAR} reference.
    const base = `${/^[0-9]/.test(stem) ? `P_${stem}` : stem}_${suffix}`;
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) name = `${base}_${n}`;
    this.#taken.add(name);
    this.#list.push({ name, providerId, field });
    return name;
  }

  /** Every variable handed out, in file order. */
  all(): readonly ExportVariable[] {
    return this.#list;
  }
}
