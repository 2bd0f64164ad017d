import { isNode, isScalar, LineCounter, parseDocument, visit } from "yaml";
import type { Document } from "yaml";
import type { z } from "zod";
import type { Config, OAuthOverrides, PriceConfig } from "./config.ts";
import { ConfigError } from "./errors.ts";
import type { HomePaths } from "./paths.ts";
import { type ConfigFile, configFileSchema, OAUTH_OVERRIDE_FIELDS } from "./schema.ts";

const VAR_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Parses, resolves `${VAR}` references and validates YAML text into the readonly Config.
 * Every failure is a ConfigError naming the file, the key path and the line.
 */
export function parseConfig(
  text: string,
  paths: HomePaths,
  env: (name: string) => string | undefined,
): Config {
  const file = paths.configPath;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const line = first.linePos?.[0].line ?? lines.linePos(first.pos[0]).line;
    throw new ConfigError(`${file}:${line}: invalid YAML: ${first.message.split("\n")[0]}`);
  }
  resolveVariables(doc, env, (offset, message) => {
    throw new ConfigError(`${file}:${lines.linePos(offset).line}: ${message}`);
  });
  const parsed = configFileSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) throw new ConfigError(describeIssue(parsed.error.issues[0], doc, lines, file));
  checkUniqueness(parsed.data, doc, lines, file);
  const config = toConfig(parsed.data, paths);
  // The environment wins over the file, so one config can serve a laptop (SQLite) and a fleet (PostgreSQL).
  const databaseUrl = env("GATEWAY_DATABASE_URL");
  if (!databaseUrl) return config;
  if (!/^postgres(ql)?:\/\/\S+$/.test(databaseUrl)) {
    throw new ConfigError("GATEWAY_DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  return { ...config, storage: { url: databaseUrl } };
}

function resolveVariables(
  doc: Document,
  env: (name: string) => string | undefined,
  fail: (offset: number, message: string) => never,
): void {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== "string" || !node.value.includes("${")) return;
      node.value = node.value.replace(VAR_REFERENCE, (_match, name: string) => {
        const value = env(name);
        if (value === undefined) {
          fail(node.range?.[0] ?? 0, `environment variable ${name} is not set (referenced as \${${name}})`);
        }
        return value;
      });
    },
  });
}

function describeIssue(issue: z.core.$ZodIssue, doc: Document, lines: LineCounter, file: string): string {
  const path = issue.path.map(String);
  const keyPath = path.length > 0 ? formatPath(path) : "(top level)";
  const at = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]] : issue.path;
  const line = lineOf(doc, lines, at);
  let message = issue.message;
  if (issue.code === "unrecognized_keys") {
    message = `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  } else if (issue.code === "invalid_value" && "values" in issue) {
    message = `must be one of ${issue.values.map(String).join(", ")}`;
  }
  return `${file}:${line}: ${keyPath}: ${message}`;
}

function formatPath(path: readonly string[]): string {
  return path.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

function lineOf(doc: Document, lines: LineCounter, path: readonly PropertyKey[]): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth).map((p) => (typeof p === "symbol" ? String(p) : p)), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    if (isScalar(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

function checkUniqueness(data: ConfigFile, doc: Document, lines: LineCounter, file: string): void {
  const duplicate = (section: string, field: string, values: readonly string[]) => {
    const seen = new Set<string>();
    values.forEach((value, index) => {
      if (seen.has(value)) {
        const line = lineOf(doc, lines, [section, index, field]);
        throw new ConfigError(
          `${file}:${line}: ${section}[${index}].${field}: duplicate ${field} "${value}"`,
        );
      }
      seen.add(value);
    });
  };
  duplicate("providers", "id", data.providers.map((p) => p.id));
  duplicate("combos", "name", data.combos.map((c) => c.name));
  duplicate("api_keys", "key", data.api_keys.map((k) => k.key));
}

function toConfig(data: ConfigFile, paths: HomePaths): Config {
  const pricing: Record<string, PriceConfig> = {};
  for (const [model, p] of Object.entries(data.pricing)) {
    pricing[model] = {
      inputPerMtok: p.input_per_mtok,
      outputPerMtok: p.output_per_mtok,
      cacheCreationPerMtok: p.cache_creation_per_mtok,
      cacheReadPerMtok: p.cache_read_per_mtok,
      ...(p.per_image === undefined ? {} : { perImage: p.per_image }),
      ...(p.per_second === undefined ? {} : { perSecond: p.per_second }),
      ...(p.per_mchar === undefined ? {} : { perMchar: p.per_mchar }),
      ...(p.per_search_unit === undefined ? {} : { perSearchUnit: p.per_search_unit }),
    };
  }
  return {
    paths,
    server: {
      host: data.server.host,
      port: data.server.port,
      requireApiKey: data.server.require_api_key,
      drainTimeoutMs: data.server.drain_timeout_s * 1000,
      trustedProxies: data.server.trusted_proxies,
      allowPrivateImageUrls: data.server.allow_private_image_urls,
    },
    limits: {
      maxAnswerBytes: data.limits.max_answer_bytes,
      maxStreamEventChars: data.limits.max_stream_event_chars,
      maxHeaderBytes: data.limits.max_header_bytes,
      responseTimeoutMs: data.limits.response_timeout_s * 1000,
      idleTimeoutMs: data.limits.idle_timeout_s * 1000,
      firstContentTimeoutMs: data.limits.first_content_timeout_s * 1000,
      maxStreamDurationMs: data.limits.max_stream_duration_s * 1000,
      maxConnections: data.limits.max_connections,
      poolWaitTimeoutMs: data.limits.pool_wait_timeout_s * 1000,
    },
    inventory: {
      checkIntervalMs: data.inventory.check_interval_hours * 3_600_000,
      checkConcurrency: data.inventory.check_concurrency,
      errorRetryMs: data.inventory.error_retry_s * 1000,
      checkTimeoutMs: data.inventory.check_timeout_s * 1000,
      usabilityProbe: data.inventory.usability_probe,
      checkProviderKeys: data.inventory.check_provider_keys,
      allowPrivateTargets: data.inventory.allow_private_targets,
      pushRateLimit: data.inventory.push_rate_limit,
      pushRateWindowMs: data.inventory.push_rate_window_s * 1000,
    },
    storage: { url: data.storage.url ?? null },
    apiKeys: data.api_keys.map((k, i) => ({
      key: k.key,
      label: k.client_key_label ?? `static-key-${i + 1}`,
    })),
    providers: data.providers.map((p) => ({
      id: p.id,
      prefix: p.prefix,
      apiType: p.api_type,
      baseUrl: p.base_url.replace(/\/+$/, ""),
      apiKey: p.api_key,
      models: p.models,
      enabled: p.enabled,
      capabilities: Object.fromEntries(
        Object.entries(p.capabilities).map(([model, c]) => [model, {
          vision: c.vision,
          reasoning: c.reasoning,
          thinkingFormat: c.thinking_format,
          contextWindow: c.context_window,
          maxOutputTokens: c.max_output_tokens,
          maxThinkingBudget: c.max_thinking_budget,
        }]),
      ),
      ...(p.quota ? { quota: p.quota } : {}),
      ...(p.oauth ? { oauth: oauthOverrides(p.oauth) } : {}),
      ...(p.azure ? { azure: { apiVersion: p.azure.api_version, deployments: p.azure.deployments } } : {}),
      ...(Object.keys(p.kinds).length > 0 ? { kinds: p.kinds } : {}),
    })),
    combos: data.combos.map((c) => ({ name: c.name, models: c.models })),
    tokenSavers: data.token_savers,
    pricing,
    metrics: { enabled: data.metrics.enabled, token: data.metrics.token, instance: data.metrics.instance },
    telemetry: data.telemetry,
    sso: data.sso
      ? {
        displayName: data.sso.display_name,
        issuer: data.sso.issuer,
        clientId: data.sso.client_id,
        clientSecret: data.sso.client_secret,
        redirectBaseUrl: data.sso.redirect_base_url?.replace(/\/+$/, "") ?? null,
        scopes: data.sso.scopes,
        allowedDomains: data.sso.allowed_domains,
        roleClaim: data.sso.role_claim ?? null,
        adminValues: data.sso.admin_values,
        viewerValues: data.sso.viewer_values,
        defaultRole: data.sso.default_role,
        tokenAuthMethod: data.sso.token_auth_method ?? null,
      }
      : null,
  };
}

/** YAML `providers[].oauth` (snake_case) → OAuthOverrides, without absent fields. */
function oauthOverrides(o: Record<string, string | undefined>): OAuthOverrides {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(o)) {
    if (value !== undefined) out[OAUTH_OVERRIDE_FIELDS[key as keyof typeof OAUTH_OVERRIDE_FIELDS]] = value;
  }
  return out;
}
