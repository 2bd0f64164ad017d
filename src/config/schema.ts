import { z } from "zod";
import type { OAuthOverrides } from "./config.ts";
import { API_TYPES } from "./api_types.ts";
import { parseIpRange } from "../security/ip_ranges.ts";
import { telemetrySchema } from "../telemetry/config.ts";
import { MODEL_KINDS } from "../model/model_kind.ts";

const MODEL_REF = /^[^/\s]+\/\S+$/;
const saverLevel = z.enum(["lite", "full", "ultra"]);

/**
 * Prices of one model (YAML `pricing.<model>`): per million tokens, and for image and audio models per image
 * (by `<quality>@<size>`, `<quality>`, `@<size>` or `*`), per second of audio, per million characters or per
 * rerank search unit.
 */
export const priceSchema = z.strictObject({
  input_per_mtok: z.number().nonnegative(),
  output_per_mtok: z.number().nonnegative(),
  cache_creation_per_mtok: z.number().nonnegative().default(0),
  cache_read_per_mtok: z.number().nonnegative().default(0),
  per_image: z.record(z.string().min(1), z.number().nonnegative()).optional(),
  per_second: z.number().nonnegative().optional(),
  per_mchar: z.number().nonnegative().optional(),
  per_search_unit: z.number().nonnegative().optional(),
});

/** Capability overrides of one upstream model (YAML `providers[].capabilities.<model>`). */
export const capabilityOverrideSchema = z.strictObject({
  vision: z.boolean().optional(),
  reasoning: z.boolean().optional(),
  thinking_format: z.enum(["anthropic_budget", "openai_effort", "google_budget", "google_level", "none"])
    .optional(),
  context_window: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
  max_thinking_budget: z.number().int().positive().optional(),
});

/** Configured limits of one account (YAML `providers[].quota`); routing deprioritises it when spent. */
export const providerQuotaSchema = z.strictObject({
  rpm: z.number().int().nonnegative().optional(),
  rpd: z.number().int().nonnegative().optional(),
  windows: z.array(z.strictObject({
    window: z.enum(["5h", "daily", "weekly", "monthly"]),
    metric: z.enum(["requests", "tokens"]).default("requests"),
    limit: z.number().int().positive(),
  })).default([]),
});

/** YAML names of the OAuth overrides → OAuthOverrides fields. */
export const OAUTH_OVERRIDE_FIELDS = {
  client_id: "clientId",
  client_secret: "clientSecret",
  token_url: "tokenUrl",
  authorize_url: "authorizeUrl",
  redirect_uri: "redirectUri",
  device_code_url: "deviceCodeUrl",
  device_token_url: "deviceTokenUrl",
  verification_url: "verificationUrl",
  register_url: "registerUrl",
  start_url: "startUrl",
  session_token_url: "sessionTokenUrl",
  usage_url: "usageUrl",
  region: "region",
  project: "project",
} as const satisfies Record<string, keyof OAuthOverrides>;

const oauthUrl = z.url({ protocol: /^https?$/ });

/** An AWS region name (Kiro's API hosts are per region). */
export const awsRegion = z.string().regex(
  /^[a-z]{2}(-[a-z]+)+-\d$/,
  "must be an AWS region such as eu-central-1",
);
/** A Google Cloud project id (legacy ids may carry a domain: `example.com:project`). */
export const cloudProject = z.string().regex(
  /^[A-Za-z0-9][A-Za-z0-9.:_-]{0,99}$/,
  "must be a Google Cloud project id such as my-project-123",
);

/** Overrides of a subscription kind's OAuth endpoints (YAML `providers[].oauth`; docs/subscriptions.md). */
export const oauthOverridesSchema = z.strictObject({
  client_id: z.string().min(1).optional(),
  // Google's installed-app secret: configuration (e.g. ${GOOGLE_OAUTH_CLIENT_SECRET}), never shipped in code.
  client_secret: z.string().min(1).optional(),
  token_url: oauthUrl.optional(),
  authorize_url: oauthUrl.optional(),
  redirect_uri: z.string().min(1).optional(),
  device_code_url: oauthUrl.optional(),
  device_token_url: oauthUrl.optional(),
  verification_url: oauthUrl.optional(),
  register_url: oauthUrl.optional(),
  start_url: oauthUrl.optional(),
  session_token_url: oauthUrl.optional(),
  usage_url: oauthUrl.optional(),
  // The region names hosts (oidc.<region>.amazonaws.com, q.<region>.amazonaws.com), so only a region's
  // shape is accepted.
  region: awsRegion.optional(),
  project: cloudProject.optional(),
});

const AZURE_VERSION_RULE = "must be v1, preview or a dated version such as 2024-10-21";
const AZURE_DEPLOYMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const AZURE_DEPLOYMENT_RULE = "deployment names are letters, digits, '.', '_' or '-'";
/** An Azure OpenAI API version: the v1 API ("v1", "preview") or a dated one. */
export const azureApiVersion = z.string().regex(
  /^(v1|preview|\d{4}-\d{2}-\d{2}(-preview)?)$/,
  AZURE_VERSION_RULE,
);
/** An Azure OpenAI deployment name (it becomes a URL path segment). */
export const azureDeploymentName = z.string().regex(AZURE_DEPLOYMENT, AZURE_DEPLOYMENT_RULE);

/**
 * Azure OpenAI's call settings (YAML `providers[].azure`): `api_version` "v1" (the default) calls the v1 API
 * (`/openai/v1/...`, the deployment named in the body); a dated version ("2024-10-21", "2025-04-01-preview")
 * calls `/openai/deployments/{deployment}/...?api-version=...`. `deployments` maps a model name to its
 * deployment; a model without an entry is its own deployment name.
 */
export const azureSchema = z.strictObject({
  api_version: azureApiVersion.default("v1"),
  deployments: z.record(z.string().min(1), azureDeploymentName).default({}),
});

/**
 * A provider's API key as the upstream's header carries it. Surrounding whitespace (a pasted key's newline,
 * a Windows `.env` file's CR) is dropped. A line break or other control character inside would make every
 * call fail (the HTTP client refuses a header value that could write headers of its own), and a lone
 * surrogate cannot be sent as the same text, so both are refused where the key is given.
 */
export const credentialText = z.string({ error: "must be a string" }).trim()
  // deno-lint-ignore no-control-regex
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), "must not contain line breaks or other control characters")
  .refine((v) => v.isWellFormed(), "must be valid Unicode text (it contains a lone surrogate)");

/** Whether a URL names no user or password (`https://user:secret@host/…`). */
export function withoutUserinfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username === "" && parsed.password === "";
  } catch {
    return true; // not a URL at all: the URL check says so
  }
}

/**
 * Why a base URL with a user or password is refused: the credential belongs in `api_key`, which is sealed at
 * rest and redacted from every text; in the URL it would be shown wherever the URL is (the dashboard, exports).
 */
export const USERINFO_RULE = "must not contain a user name or password (give the key as api_key)";

/** One provider account (YAML `providers[]`). */
export const providerSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "letters, digits, '_', '.', ':' or '-' only"),
  prefix: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "letters, digits, '_', '.' or '-' only (no '/')"),
  api_type: z.enum(API_TYPES),
  base_url: z.url({ protocol: /^https?$/ }).refine(withoutUserinfo, USERINFO_RULE),
  api_key: credentialText.default(""),
  models: z.array(z.string().min(1)).default([]),
  enabled: z.boolean().default(true),
  capabilities: z.record(z.string().min(1), capabilityOverrideSchema).default({}),
  quota: providerQuotaSchema.optional(),
  oauth: oauthOverridesSchema.optional(),
  azure: azureSchema.optional(),
  // A model's kind when its name says otherwise (a reranker named like a chat model, …): docs/config.md.
  kinds: z.record(z.string().min(1), z.enum(MODEL_KINDS)).default({}),
});

/** One combo (YAML `combos[]`). */
export const comboSchema = z.strictObject({
  name: z.string().min(1).regex(/^\S+$/, "no spaces"),
  models: z.array(z.string().regex(MODEL_REF, "must be <prefix>/<model>")).min(1),
});

/** One static API key (YAML `api_keys[]`). */
export const staticKeySchema = z.strictObject({
  key: z.string().min(8).regex(/^\S+$/, "must not contain spaces"),
  client_key_label: z.string().min(1).optional(),
});

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An http(s) URL that is https unless it points at this machine (a test provider on loopback). */
const secureUrl = z.url({ protocol: /^https?$/ }).refine((v) => {
  const url = new URL(v);
  return url.protocol === "https:" || LOOPBACK_HOSTS.has(url.hostname);
}, "must be an https:// URL (http:// only for localhost)");

/** Dashboard single sign-on with OpenID Connect (YAML `sso:`; docs/sso.md). */
export const ssoSchema = z.strictObject({
  display_name: z.string().trim().min(1).max(60).default("single sign-on"),
  issuer: secureUrl,
  client_id: z.string().min(1),
  // A credential: write it as ${VAR} so it stays out of the file.
  client_secret: z.string().min(1),
  redirect_base_url: secureUrl.refine((v) => !/[?#]/.test(v), "must not have a query or fragment").optional(),
  // RFC 6749 scope tokens; openid, email and profile are always asked for.
  scopes: z.array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, "must be one scope token (no spaces)"))
    .default([]),
  allowed_domains: z.array(
    z.string().trim().toLowerCase().regex(
      /^(\*|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+)$/,
      "must be an email domain such as example.com (or * for any domain)",
    ),
  ).min(1, "must name at least one email domain (or * to allow any)"),
  role_claim: z.string().min(1).optional(),
  admin_values: z.array(z.string().min(1)).default([]),
  viewer_values: z.array(z.string().min(1)).default([]),
  default_role: z.enum(["none", "viewer"]).default("none"),
  // For a client registered for one method when the provider offers both (basic is tried first otherwise).
  token_auth_method: z.enum(["client_secret_basic", "client_secret_post"]).optional(),
}).superRefine((v, ctx) => {
  if (v.role_claim === undefined) {
    if (v.admin_values.length > 0 || v.viewer_values.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["role_claim"],
        message: "is required with admin_values or viewer_values",
      });
    } else if (v.default_role === "none") {
      ctx.addIssue({
        code: "custom",
        path: ["default_role"],
        message:
          "is none and no role_claim is set, so nobody could sign in: set role_claim with admin_values, or default_role: viewer",
      });
    }
  } else if (v.admin_values.length === 0 && v.viewer_values.length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["role_claim"],
      message: "needs admin_values or viewer_values to map",
    });
  }
});

/** The whole YAML file. Unknown keys are errors so typos do not pass silently. */
export const configFileSchema = z.strictObject({
  server: z.preprocess(
    (v) => v ?? {},
    z.strictObject({
      host: z.string().min(1).default("127.0.0.1"),
      port: z.number().int().min(1).max(65535).default(20128),
      require_api_key: z.boolean().default(false),
      drain_timeout_s: z.number().min(0).max(3600).default(20),
      trusted_proxies: z.array(
        z.string().refine((v) => parseIpRange(v) !== null, "must be an IP address or CIDR range"),
      ).default([]),
      allow_private_image_urls: z.boolean().default(false),
    }),
  ),
  storage: z.preprocess(
    (v) => v ?? {},
    z.strictObject({
      url: z.string().regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// URL")
        .optional(),
    }),
  ),
  limits: z.preprocess(
    (v) => v ?? {},
    z.strictObject({
      max_answer_bytes: z.number().int().min(1024).default(64 * 1024 * 1024),
      max_stream_event_chars: z.number().int().min(1024).default(16 * 1024 * 1024),
      max_header_bytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(64 * 1024),
      response_timeout_s: z.number().positive().max(86_400).default(300),
      idle_timeout_s: z.number().positive().max(86_400).default(120),
      first_content_timeout_s: z.number().positive().max(86_400).default(120),
      max_stream_duration_s: z.number().min(0).max(7 * 86_400).default(0),
      max_connections: z.number().int().min(1).max(10_000).default(100),
      pool_wait_timeout_s: z.number().positive().max(3600).default(30),
    }),
  ),
  api_keys: z.array(staticKeySchema).nullish().transform((v) => v ?? []),
  providers: z.array(providerSchema).nullish().transform((v) => v ?? []),
  combos: z.array(comboSchema).nullish().transform((v) => v ?? []),
  token_savers: z.preprocess(
    (v) => v ?? {},
    z.strictObject({
      rtk: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
      caveman: z.strictObject({ enabled: z.boolean().default(false), level: saverLevel.default("full") })
        .prefault({}),
      ponytail: z.strictObject({ enabled: z.boolean().default(false), level: saverLevel.default("full") })
        .prefault({}),
      headroom: z.strictObject({
        enabled: z.boolean().default(false),
        url: z.url().default("http://127.0.0.1:8787"),
      }).prefault({}),
    }),
  ),
  pricing: z.record(z.string().min(1), priceSchema).nullish().transform((v) => v ?? {}),
  inventory: z.preprocess(
    (v) => v ?? {},
    z.strictObject({
      check_interval_hours: z.number().min(0).max(24 * 365).default(12),
      check_concurrency: z.number().int().min(1).max(64).default(8),
      error_retry_s: z.number().min(0).max(86_400).default(60),
      check_timeout_s: z.number().positive().max(600).default(15),
      usability_probe: z.boolean().default(true),
      check_provider_keys: z.boolean().default(true),
      allow_private_targets: z.boolean().default(false),
      push_rate_limit: z.number().int().min(1).default(300),
      push_rate_window_s: z.number().positive().default(60),
    }),
  ),
  metrics: z.preprocess(
    (v) => v ?? {},
    z.strictObject({
      enabled: z.boolean().default(false),
      // A scrape token is a credential: short ones are guessable.
      token: z.string().refine((v) => v === "" || (v.length >= 16 && !/\s/.test(v)), {
        message: "must be at least 16 characters without spaces (or empty: dashboard access only)",
      }).default(""),
      instance: z.string().regex(/^[A-Za-z0-9_.:-]*$/, "letters, digits, '_', '.', ':' or '-' only")
        .default(""),
    }),
  ),
  sso: ssoSchema.nullish(),
  telemetry: telemetrySchema,
});

/** The YAML file after validation and defaults. */
export type ConfigFile = z.output<typeof configFileSchema>;
