/**
 * One key check against its upstream: authentication and the model list, rate-limit headers, credit
 * where the upstream exposes it, then a 1-token usability probe. The protocol follows the key's api_type
 * (the same presets the gateway routes with). OAuth blobs are refreshed through the credential core (the
 * `refresh` the composition root passes in), which writes a rotated blob back itself.
 */
import type { ApiType } from "../config/api_types.ts";
import type { AzureSettings, OAuthOverrides } from "../config/mod.ts";
import { AZURE_DEFAULTS, azureDeployment, azureOperationUrl } from "../executors/azure.ts";
import {
  type CheckOutcome,
  creditsFromHeaders,
  errorOutcome,
  invalidOutcome,
  looksLikeQuota,
  modelsFrom,
  probeModel,
  probeVerdict,
  rateLimitsFrom,
} from "./check_outcome.ts";
import { type CheckFetch, type CheckResponse, RefusedTarget } from "./guarded_fetch.ts";
import { type CreditSource, creditUrl, readCredit } from "./credit_endpoints.ts";
import { parseCredential } from "../credentials/mod.ts";

/** What a check needs to know about one key. */
export interface CheckTarget {
  /** The key, or a canonical OAuth blob (JSON). */
  readonly value: string;
  readonly blob: boolean;
  readonly keyId: string;
  readonly providerId: string;
  readonly apiType: ApiType;
  readonly baseUrl: string;
  readonly probeModel?: string;
  /** The upstream's credit endpoint, when it has one (the catalog's). */
  readonly credit?: CreditSource;
  /** OAuth endpoint overrides of the prefix's provider row (an OAuth key refreshes where its row does). */
  readonly oauth?: OAuthOverrides;
  /** Azure kinds: the provider row's API version and deployments (absent: the v1 API). */
  readonly azure?: AzureSettings;
  /** The base URL is an administrator's provider row: its origin is checked even when private. */
  readonly trustedBaseUrl?: boolean;
}

/**
 * Refreshes an OAuth credential through the credential core (which writes a rotated blob back itself):
 * the current blob, or null when it could not be refreshed. Absent, blobs are judged by their access token
 * and expiry alone.
 */
export type CredentialRefresh = (
  target: {
    readonly keyId: string;
    readonly apiType: ApiType;
    readonly value: string;
    readonly oauth?: OAuthOverrides;
  },
) => Promise<string | null>;

/** The checker's outside world. */
export interface CheckerDeps {
  readonly fetch: CheckFetch;
  readonly usabilityProbe: boolean;
  readonly refresh?: CredentialRefresh;
  readonly now: () => number;
}

interface Protocol {
  readonly headers: Record<string, string>;
  readonly modelsUrl: string;
  probe(model: string): { url: string; body: string };
}

function protocolFor(target: CheckTarget): Protocol | null {
  const base = target.baseUrl.replace(/\/+$/, "");
  const key = target.value;
  switch (target.apiType) {
    case "chat_compat":
    case "free_tier":
    case "responses_native":
      return {
        headers: { authorization: `Bearer ${key}` },
        modelsUrl: `${base}/models`,
        probe: (model) => ({
          url: `${base}/chat/completions`,
          body: JSON.stringify({ model, max_tokens: 1, messages: [{ role: "user", content: "hi" }] }),
        }),
      };
    case "azure_openai":
    case "azure_responses": {
      const azure = target.azure ?? AZURE_DEFAULTS;
      return {
        headers: { "api-key": key },
        modelsUrl: azureOperationUrl(base, azure, "/models", null),
        probe: (model) => ({
          url: azureOperationUrl(base, azure, "/chat/completions", model),
          body: JSON.stringify({
            model: azureDeployment(azure, model),
            max_tokens: 1,
            messages: [{ role: "user", content: "hi" }],
          }),
        }),
      };
    }
    case "messages_native":
      return {
        headers: { "x-api-key": key, "anthropic-version": "2023-06-01" },
        modelsUrl: `${base}/v1/models`,
        probe: (model) => ({
          url: `${base}/v1/messages`,
          body: JSON.stringify({ model, max_tokens: 1, messages: [{ role: "user", content: "hi" }] }),
        }),
      };
    case "generate_native":
      return {
        headers: { "x-goog-api-key": key },
        modelsUrl: `${base}/v1beta/models`,
        probe: (model) => ({
          url: `${base}/v1beta/models/${encodeURIComponent(model)}:generateContent`,
          body: JSON.stringify({
            contents: [{ role: "user", parts: [{ text: "hi" }] }],
            generationConfig: { maxOutputTokens: 1 },
          }),
        }),
      };
    default:
      return null;
  }
}

function failureText(error: unknown): string {
  if (error instanceof RefusedTarget) return `refused: ${error.message}`;
  const e = error as Error;
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "Connection timeout";
  return `connection failed: ${e?.message ?? String(error)}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Checks one key; never throws (a failure is an `error` outcome). */
export function checkKey(target: CheckTarget, deps: CheckerDeps): Promise<CheckOutcome> {
  return checkTrusted(target, target.trustedBaseUrl ? trusting(deps, target.baseUrl) : deps);
}

/** Deps whose fetch lets `baseUrl`'s origin through the private-address guard. */
function trusting(deps: CheckerDeps, baseUrl: string): CheckerDeps {
  let trustedOrigin: string;
  try {
    trustedOrigin = new URL(baseUrl).origin;
  } catch {
    return deps;
  }
  return { ...deps, fetch: (url, init) => deps.fetch(url, { ...init, trustedOrigin }) };
}

async function checkTrusted(target: CheckTarget, deps: CheckerDeps): Promise<CheckOutcome> {
  if (target.blob) return checkBlob(target, deps);
  const protocol = protocolFor(target);
  if (protocol === null) return errorOutcome(`keys of api_type ${target.apiType} cannot be checked yet`);
  if (target.baseUrl === "") return errorOutcome("no base URL: give the key a base URL or add its provider");
  let listed: CheckResponse;
  try {
    listed = await deps.fetch(protocol.modelsUrl, { method: "GET", headers: protocol.headers });
  } catch (error) {
    return errorOutcome(failureText(error));
  }
  const rateLimits = rateLimitsFrom(listed.headers);
  const credits = creditsFromHeaders(listed.headers);
  const base = { rateLimits, credits, models: null, note: "", error: "" };
  if (listed.status === 401 || listed.status === 403) {
    if (looksLikeQuota(listed.text)) {
      return {
        ...base,
        status: "active",
        valid: true,
        usable: false,
        usability: "no_quota",
        credits: { remaining: 0, total: credits?.total ?? null, used: credits?.used ?? null },
        note: "authenticated but out of quota or credit",
      };
    }
    return { ...invalidOutcome(`Auth failed (${listed.status})`), rateLimits };
  }
  if (listed.status === 429) {
    return {
      ...base,
      status: "active",
      valid: true,
      usable: false,
      usability: "rate_limited",
      error: "rate limited during the check (429); routable again after the next check",
    };
  }
  if (listed.status >= 500) {
    return { ...errorOutcome(`HTTP ${listed.status} from the model list`), rateLimits };
  }
  // Some upstreams have no model list: the probe alone decides then.
  const noList = listed.status === 404 || listed.status === 405;
  if (!noList && (listed.status < 200 || listed.status >= 300)) {
    return { ...invalidOutcome(`HTTP ${listed.status}`), rateLimits };
  }
  const models = noList ? null : modelsFrom(parseJson(listed.text));
  const credit = await readCredits(target, protocol, deps);
  if (credit.kind === "invalid") return { ...invalidOutcome(credit.error), rateLimits };
  const known = credit.kind === "credits"
    ? { ...base, models, credits: credit.credits }
    : { ...base, models };
  if (credit.kind === "credits" && (credit.dailyExhausted || credit.empty)) {
    // No probe: a request with no credit left would only be refused (and may be billed as an attempt).
    return {
      ...known,
      status: credit.dailyExhausted ? "daily_exhausted" : "active",
      valid: true,
      usable: false,
      usability: "no_quota",
      note: credit.note,
      ...(credit.resetsAt !== null ? { recheckAt: credit.resetsAt } : {}),
    };
  }
  if (!deps.usabilityProbe) {
    return { ...known, status: "active", valid: true, usable: true, usability: "unknown" };
  }
  return await probe(target, protocol, deps, known, noList);
}

/** The key's credit from the upstream's credit endpoint; a failed call is `unknown` (the check goes on). */
async function readCredits(target: CheckTarget, protocol: Protocol, deps: CheckerDeps) {
  if (target.credit === undefined) return { kind: "unknown" } as const;
  const url = creditUrl(target.credit, target.baseUrl);
  try {
    const answer = await deps.fetch(url, { method: "GET", headers: protocol.headers });
    return readCredit(target.credit, answer, url, deps.now());
  } catch {
    return { kind: "unknown" } as const;
  }
}

async function probe(
  target: CheckTarget,
  protocol: Protocol,
  deps: CheckerDeps,
  base: Pick<CheckOutcome, "rateLimits" | "credits" | "models" | "note" | "error">,
  noList: boolean,
): Promise<CheckOutcome> {
  const model = probeModel(target.probeModel, base.models);
  if (model === null) {
    return {
      ...base,
      status: "active",
      valid: true,
      usable: true,
      usability: "unknown",
      note: "no model to probe",
    };
  }
  const call = protocol.probe(model);
  let answer: CheckResponse;
  try {
    answer = await deps.fetch(call.url, {
      method: "POST",
      headers: { ...protocol.headers, "content-type": "application/json" },
      body: call.body,
    });
  } catch (error) {
    return { ...errorOutcome(failureText(error)), models: base.models, rateLimits: base.rateLimits };
  }
  const verdict = probeVerdict(answer.status, answer.text);
  const rateLimits = { ...base.rateLimits, ...nonNull(rateLimitsFrom(answer.headers)) };
  if (verdict.usability === "auth_failed" && noList) {
    return { ...invalidOutcome(`Auth failed (${answer.status})`), rateLimits };
  }
  const credits = verdict.usability === "no_quota" ? { remaining: 0, total: null, used: null } : base.credits;
  return {
    ...base,
    rateLimits,
    credits,
    status: "active",
    valid: true,
    usable: verdict.usable,
    usability: verdict.usability,
    note: verdict.note,
  };
}

function nonNull<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as Partial<T>;
}

async function checkBlob(target: CheckTarget, deps: CheckerDeps): Promise<CheckOutcome> {
  let blob;
  try {
    blob = parseCredential(target.value, Math.floor(deps.now() / 1000));
  } catch (error) {
    return invalidOutcome((error as Error).message);
  }
  const base = { models: null, rateLimits: { rpm: null, tpm: null, rpd: null }, credits: null, error: "" };
  const expired = blob.expiresAt !== undefined && blob.expiresAt * 1000 <= deps.now();
  if (blob.refreshToken !== undefined && deps.refresh !== undefined) {
    const fresh = await deps.refresh({
      keyId: target.keyId,
      apiType: target.apiType,
      value: target.value,
      oauth: target.oauth,
    }).catch(() => null);
    if (fresh !== null) {
      return {
        ...base,
        status: "active",
        valid: true,
        usable: true,
        usability: "usable",
        note: fresh !== target.value ? "credential refreshed" : "credential current",
        ...(fresh !== target.value ? { rotatedValue: fresh } : {}),
      };
    }
  }
  if (expired) {
    return blob.refreshToken !== undefined && deps.refresh === undefined
      ? errorOutcome("access token expired and no credential refresh is available to this check")
      : invalidOutcome("access token expired and could not be refreshed");
  }
  return {
    ...base,
    status: "active",
    valid: true,
    usable: true,
    usability: "access_token_only",
    note: "access token present; not refreshed",
  };
}
