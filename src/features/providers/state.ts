import { keyRole } from "../../gateway/identity.ts";
import { budgetStatus } from "../../accounting/mod.ts";
import type { PriceConfig, ProviderConfig } from "../../config/mod.ts";
import { presetFor } from "../../executors/presets.ts";
import { credentialStatus, oauthKind, parseCredential } from "../../credentials/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import type {
  BudgetView,
  ComboView,
  CredentialView,
  KeyView,
  LogDetailView,
  LogSummaryView,
  PriceView,
  ProviderView,
} from "../../dashboard/contract/mod.ts";
import type {
  ApiKeyRecord,
  BudgetRecord,
  ComboRecord,
  RequestLogRecord,
  RequestLogSummary,
} from "../../storage/mod.ts";
import { maskSecret } from "../../security/mask.ts";
import { flowsOffered, providerSigninFacts } from "../signin/mod.ts";

/** A DB key as the dashboard shows it: never the key, only its display prefix. */
export function keyView(key: ApiKeyRecord, budgets: readonly BudgetRecord[]): KeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    status: key.status,
    can_login: key.canLogin,
    allowed_models: [...key.allowedModels],
    role: keyRole(key),
    role_explicit: key.role !== null,
    daily_budget: budgets.find((b) => b.keyId === key.id)?.dailyLimit ?? null,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
  };
}

/** A provider with its credential masked, plus routing facts. */
export function providerView(provider: ProviderConfig, gateway: DashboardContext): ProviderView {
  const preset = presetFor(provider.apiType);
  const cooldown = gateway.cooldowns.active(gateway.now()).find((c) => c.accountId === provider.id);
  return {
    id: provider.id,
    prefix: provider.prefix,
    api_type: provider.apiType,
    base_url: provider.baseUrl,
    api_key_masked: maskSecret(
      oauthKind(provider.apiType) ? accessTokenOf(provider.apiKey) : provider.apiKey,
    ),
    has_api_key: provider.apiKey !== "",
    models: [...provider.models],
    enabled: provider.enabled,
    format: preset.format,
    cooldown: cooldown
      ? { remaining_s: cooldown.remainingSeconds, until: cooldown.untilMs, kind: cooldown.kind }
      : null,
    credential: oauthKind(provider.apiType) ? credentialView(provider, gateway) : null,
    signin_flows: signinFlows(provider),
    region: provider.oauth?.region ?? null,
    project: provider.oauth?.project ?? null,
  };
}

/** The stored subscription credential's status and this gateway's last refresh of it. */
function credentialView(provider: ProviderConfig, gateway: DashboardContext): CredentialView | null {
  if (provider.apiKey === "") return null;
  const status = credentialStatus(provider.apiType, provider.apiKey, Math.floor(gateway.now() / 1000));
  const state = gateway.reads.credentials.states().get(`provider:${provider.id}`);
  return {
    kind: status.kind,
    expires_at: status.expiresAt,
    refreshable: status.refreshable,
    account: status.account,
    last_refresh_at: state?.lastRefreshAt ?? null,
    last_error: state?.lastError ?? null,
    last_error_at: state?.lastErrorAt ?? null,
  };
}

/** A blob is masked by its access token (the JSON around it would show nothing useful). */
function accessTokenOf(apiKey: string): string {
  try {
    return parseCredential(apiKey, 0).accessToken;
  } catch {
    return apiKey;
  }
}

function signinFlows(provider: ProviderConfig) {
  const facts = providerSigninFacts(provider);
  return facts === null ? [] : flowsOffered(facts);
}

/** A budget with today's spend and status. */
export function budgetView(budget: BudgetRecord, gateway: DashboardContext): BudgetView {
  const spent = gateway.spentToday(budget.keyId);
  const status = budgetStatus({ dailyLimit: budget.dailyLimit, warnPct: budget.warnPct, spentToday: spent });
  const key = budget.keyId === null ? undefined : gateway.state.keys.find((k) => k.id === budget.keyId);
  return {
    id: budget.id,
    scope: budget.keyId === null ? "global" as const : budget.keyId,
    key_id: budget.keyId,
    scope_label: budget.keyId === null ? "Global" : key?.name ?? `key #${budget.keyId}`,
    daily_limit: budget.dailyLimit,
    warn_pct: budget.warnPct,
    spent_today: round(spent, 6),
    percentage: round(status.percentage, 2),
    remaining: round(status.remaining, 6),
    status: status.status,
  };
}

/** A combo with the members no enabled provider serves. */
export function comboView(combo: ComboRecord, gateway: DashboardContext): ComboView {
  const routable = new Set(
    gateway.state.providers.filter((p) => p.enabled).flatMap((p) => p.models.map((m) => `${p.prefix}/${m}`)),
  );
  return {
    id: combo.id,
    name: combo.name,
    models: [...combo.models],
    unroutable: combo.models.filter((m) => !routable.has(m)),
  };
}

/** A price in the snake_case shape of the YAML file. */
export function priceView(model: string, price: PriceConfig): PriceView {
  return {
    model,
    input_per_mtok: price.inputPerMtok,
    output_per_mtok: price.outputPerMtok,
    cache_creation_per_mtok: price.cacheCreationPerMtok,
    cache_read_per_mtok: price.cacheReadPerMtok,
  };
}

/** A request log row without bodies. */
export function logSummary(log: RequestLogSummary): LogSummaryView {
  return {
    id: log.id,
    ts: log.ts,
    client_format: log.clientFormat,
    model: log.model,
    provider_id: log.providerId,
    status: log.status,
    latency_ms: log.latencyMs,
    streamed: log.streamed,
    user: log.user,
    error: log.error,
    warnings: log.warnings,
  };
}

/** A request log row with bodies. */
export function logDetail(log: RequestLogRecord): LogDetailView {
  return {
    ...logSummary(log),
    request_body: log.requestBody,
    response_body: log.responseBody,
    request_truncated: log.requestTruncated,
    response_truncated: log.responseTruncated,
  };
}

/** Rounds for display without float noise. */
export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
