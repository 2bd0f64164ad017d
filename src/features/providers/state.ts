import { API_TYPES, type ProviderConfig } from "../../config/mod.ts";
import { presetFor } from "../../executors/presets.ts";
import { FREE_TIER_PRESETS } from "../../executors/free_tier_presets.ts";
import { VENDOR_PRESETS } from "./presets.ts";
import { credentialStatus, oauthKind, parseCredential } from "../../credentials/mod.ts";
import type { DashboardContext } from "../../dashboard/context.ts";
import type { SectionInput } from "../../dashboard/state/common.ts";
import { maskSecret } from "../../security/mask.ts";
import { flowsOffered, providerSigninFacts } from "../signin/mod.ts";
import type { CredentialView, ProvidersSection, ProviderView } from "./contract.ts";

/** Providers with masked credentials, and the api_types the form offers. */
export function providersSection({ gateway }: SectionInput): ProvidersSection {
  return {
    providers: gateway.state.providers.map((p) => providerView(p, gateway)),
    api_types: API_TYPES.map((t) => ({
      api_type: t,
      format: presetFor(t).format,
      signs_in: oauthKind(t) !== null,
    })),
    free_tier_presets: FREE_TIER_PRESETS.map((p) => ({
      id: p.id,
      label: p.label,
      base_url: p.baseUrl,
      models: p.models,
    })),
    vendor_presets: VENDOR_PRESETS.map((p) => ({
      id: p.id,
      vendor: p.vendor,
      api_type: p.apiType,
      base_url: p.baseUrl,
      auth: p.auth,
      prefix: p.prefix,
      models: p.models,
    })),
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
    kinds: { ...provider.kinds },
    format: preset.format,
    cooldown: cooldown
      ? { remaining_s: cooldown.remainingSeconds, until: cooldown.untilMs, kind: cooldown.kind }
      : null,
    credential: oauthKind(provider.apiType) ? credentialView(provider, gateway) : null,
    signin_flows: signinFlows(provider),
    region: provider.oauth?.region ?? null,
    project: provider.oauth?.project ?? null,
    azure: provider.azure
      ? { api_version: provider.azure.apiVersion, deployments: { ...provider.azure.deployments } }
      : null,
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
